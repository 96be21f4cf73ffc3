import { once } from 'node:events';
import net from 'node:net';

/**
 * A TCP proxy between Paydesk and PostgreSQL that can do to the connections what a network or a
 * database host does to them in production (contract §20's faults), for real, on real sockets:
 * - `reset()`: every connection gets a TCP RST, as from a crashed host or a load balancer;
 * - `cut()`: every connection is closed (FIN), as by a server that closes its sessions;
 * - `blackhole()`: from now on nothing passes, in either direction, on any connection old or new,
 *   and nothing is refused: a partition, or a host that vanished without a reset;
 * - `silenceExisting()`: today's connections go silent for good while new ones pass: a failover
 *   behind a stale address, the old host gone without a reset;
 * - `restore()`: new connections pass again (silenced ones stay silent, as a vanished host's would).
 */
export interface FaultProxy {
  readonly port: number;
  /** `target`'s URL with host and port replaced by the proxy's. */
  url(target: string): string;
  reset(): void;
  cut(): void;
  blackhole(): void;
  silenceExisting(): void;
  restore(): void;
  /** Connections open through the proxy right now (those silenced included). */
  readonly open: number;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket | undefined;
  silent: boolean;
}

export async function startFaultProxy(targetHost: string, targetPort: number): Promise<FaultProxy> {
  const pairs = new Set<Pair>();
  let blackholed = false;

  const server = net.createServer((client) => {
    const pair: Pair = { client, upstream: undefined, silent: blackholed };
    pairs.add(pair);
    const forget = () => pairs.delete(pair);
    client.on('error', () => {});
    client.on('close', () => {
      forget();
      pair.upstream?.destroy();
    });
    // A silent pair reads and drops what it is sent, and never answers: the peer sees an open
    // connection that says nothing.
    client.on('data', (chunk) => {
      if (!pair.silent) pair.upstream?.write(chunk);
    });
    if (pair.silent) return;
    const upstream = net.connect(targetPort, targetHost);
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => {
      if (!pair.silent) client.destroy();
    });
    upstream.on('data', (chunk) => {
      if (!pair.silent) client.write(chunk);
    });
    // Bytes the client sent before the upstream connected are written once it has.
    client.pause();
    upstream.once('connect', () => client.resume());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    reset() {
      for (const p of pairs) {
        p.client.resetAndDestroy();
        p.upstream?.resetAndDestroy();
      }
    },
    cut() {
      for (const p of pairs) {
        p.client.end();
        p.upstream?.end();
      }
    },
    blackhole() {
      blackholed = true;
      for (const p of pairs) p.silent = true;
    },
    silenceExisting() {
      for (const p of pairs) p.silent = true;
    },
    restore() {
      blackholed = false;
    },
    get open() {
      return pairs.size;
    },
    async close() {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream?.destroy();
      }
      await new Promise((r) => server.close(r));
    },
  };
}
