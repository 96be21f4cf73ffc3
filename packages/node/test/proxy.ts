import { once } from 'node:events';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * What the proxy does with its n-th connection (0-based): pass it through; drop it once the server
 * has answered the first request on it (the request was carried out, the client never hears of it);
 * answer 502 itself, as a load balancer with no healthy backend does; or never answer.
 */
export type ConnectionBehaviour = 'forward' | 'drop-after-answer' | 'bad-gateway' | 'hang';

const BAD_GATEWAY = [
  'HTTP/1.1 502 Bad Gateway',
  'content-type: text/html',
  'content-length: 24',
  'connection: close',
  '',
  '<h1>502 Bad Gateway</h1>',
].join('\r\n');

/** A TCP proxy in front of Paydesk: the network between a merchant's server and Paydesk, misbehaving on cue. */
export async function startProxy(target: string, behaviour: (n: number) => ConnectionBehaviour) {
  const { hostname, port } = new URL(target);
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    const mode = behaviour(connections++);
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.on('data', (chunk: Buffer) => {
      requests.push(chunk.toString('latin1'));
      if (mode === 'bad-gateway') client.end(BAD_GATEWAY);
      else if (mode !== 'hang') upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (mode === 'drop-after-answer') {
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The raw text of what clients sent (headers and bodies), chunk by chunk. */
    requests,
    get connections() {
      return connections;
    },
    /** The value of a request header in each request that carried it. */
    header(name: string): string[] {
      const pattern = new RegExp(`^${name}: (.*)$`, 'gim');
      return requests.flatMap((r) => [...r.matchAll(pattern)].map((m) => (m[1] ?? '').trim()));
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
