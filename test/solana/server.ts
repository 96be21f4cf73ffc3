import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcError } from './errors.js';

/** Which node of the cluster a request reached: Paydesk's (`/`, faults apply) or the payers' wallets' (`/wallet`). */
export type Route = 'node' | 'wallet';

export type Handler = (method: string, params: unknown[], route: Route) => unknown;

export interface Faults {
  /** The next `requests` HTTP requests answer 429 Too Many Requests, as a provider's rate limit does. */
  rateLimit(requests: number): void;
  /** The next `calls` JSON-RPC calls answer an error (by default -32603 Internal error). */
  error(calls: number, error?: { code: number; message: string }): void;
  /** The next `requests` HTTP requests are never answered (until restart or close): a node that hangs. */
  hang(requests: number): void;
}

interface Call {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** JSON with u64 fields as plain numbers, however large: values kept as bigint are written as digits. */
export function stringify(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `\u0000${v}\u0000` : v)).replace(
    /"\\u0000(\d+)\\u0000"/g,
    '$1',
  );
}

/**
 * A JSON-RPC 2.0 server over HTTP on 127.0.0.1 (single calls and batches). It can be taken down and
 * brought back on the same port (`restart`), and injects the faults a hosted RPC provider shows.
 */
export async function startRpcServer(handle: Handler) {
  let rateLimited = 0;
  let hanging = 0;
  let failing = 0;
  let failure = { code: -32603, message: 'Internal error' };
  const counts: Record<string, number> = {};

  const answer = (call: Call, route: Route) => {
    const id = call.id ?? null;
    if (call.jsonrpc !== '2.0' || typeof call.method !== 'string') {
      return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request' } };
    }
    if (route === 'node') {
      counts[call.method] = (counts[call.method] ?? 0) + 1;
      if (failing > 0) {
        failing--;
        return { jsonrpc: '2.0', id, error: failure };
      }
    }
    try {
      const params = call.params === undefined ? [] : call.params;
      if (!Array.isArray(params)) throw new RpcError(-32602, 'Invalid params: expected an array');
      return { jsonrpc: '2.0', id, result: handle(call.method, params, route) };
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      const body = error.data === undefined ? {} : { data: error.data };
      return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, ...body } };
    }
  };

  const onRequest = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const route: Route = req.url?.startsWith('/wallet') ? 'wallet' : 'node';
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(stringify(body));
    };
    if (route === 'node' && hanging > 0) {
      hanging--;
      counts['(hung)'] = (counts['(hung)'] ?? 0) + 1;
      return;
    }
    if (route === 'node' && rateLimited > 0) {
      rateLimited--;
      counts['(429)'] = (counts['(429)'] ?? 0) + 1;
      const error = { code: 429, message: 'Too many requests for a specific RPC call' };
      return send(429, { jsonrpc: '2.0', id: null, error }, { 'retry-after': '1' });
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    try {
      send(200, Array.isArray(body) ? body.map((c) => answer(c, route)) : answer(body as Call, route));
    } catch (error) {
      // A bug of this test server, not a JSON-RPC error: say so loudly in the failing test.
      console.error('local Solana RPC:', error);
      send(500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: String(error) } });
    }
  };

  let server = http.createServer((req, res) => void onRequest(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const stop = async () => {
    if (!server.listening) return;
    const closed = once(server, 'close');
    server.close();
    server.closeAllConnections();
    await closed;
  };

  const faults: Faults = {
    rateLimit(requests) {
      rateLimited = requests;
    },
    error(calls, error = { code: -32603, message: 'Internal error' }) {
      failing = calls;
      failure = error;
    },
    hang(requests) {
      hanging = requests;
    },
  };

  return {
    url: `http://127.0.0.1:${port}`,
    walletUrl: `http://127.0.0.1:${port}/wallet`,
    faults,
    calls: (): Record<string, number> => ({ ...counts }),
    /** Stops listening (open connections are cut), waits `downMs`, listens again on the same port. */
    async restart(downMs = 0) {
      await stop();
      if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
      server = http.createServer((req, res) => void onRequest(req, res));
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    close: stop,
  };
}
