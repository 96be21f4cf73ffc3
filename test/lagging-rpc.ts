import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy in front of a real node that can lag behind it, as a provider's node (or one node
 * of a load-balanced pool) does: with a lag of N it answers `eth_blockNumber` with the node's head
 * minus N, `null` for `eth_getBlockByNumber` above that, and leaves out the logs above it. Everything
 * else is forwarded untouched. With `headToo: false` only the blocks lag, not the head: a pool whose
 * `eth_blockNumber` comes from a node that is ahead of the one serving the blocks.
 */
export interface LaggingRpc {
  readonly url: string;
  lag(blocks: number, options?: { headToo?: boolean }): void;
  close(): Promise<void>;
}

interface RpcCall {
  id: unknown;
  jsonrpc: string;
  method: string;
  params?: unknown[];
}

export async function startLaggingRpc(target: string): Promise<LaggingRpc> {
  let behind = 0n;
  let headToo = true;
  const upstream = async (body: unknown) => {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { result?: unknown; error?: unknown };
  };
  const visibleHead = async () => {
    const { result } = await upstream({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] });
    const head = BigInt(result as string) - behind;
    return head < 0n ? 0n : head;
  };

  const answer = async (call: RpcCall) => {
    if (behind === 0n) return upstream(call);
    const visible = await visibleHead();
    const hex = `0x${visible.toString(16)}`;
    const reply = (result: unknown) => ({ jsonrpc: '2.0', id: call.id, result });
    if (call.method === 'eth_blockNumber') {
      return headToo ? reply(hex) : upstream(call);
    }
    if (call.method === 'eth_getBlockByNumber') {
      const [tag, full] = call.params ?? [];
      if (tag === 'latest') return upstream({ ...call, params: [hex, full] });
      if (typeof tag === 'string' && tag.startsWith('0x') && BigInt(tag) > visible) return reply(null);
      return upstream(call);
    }
    if (call.method === 'eth_getLogs') {
      const res = await upstream(call);
      if (!Array.isArray(res.result)) return res;
      return reply(res.result.filter((l: { blockNumber: string }) => BigInt(l.blockNumber) <= visible));
    }
    return upstream(call);
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', async () => {
      try {
        const body = JSON.parse(raw) as RpcCall | RpcCall[];
        const out = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lag(blocks, options = {}) {
      behind = BigInt(blocks);
      headToo = options.headToo ?? true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
