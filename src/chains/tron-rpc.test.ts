import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { accountHex, FAMILY } from '../networks/family.js';
import { type ChainReader, chainReader } from './rpc.js';
import { RpcError } from './rpc-error.js';

// The reader against recorded TRON JSON-RPC answers (fixtures/tron-jsonrpc/README.md says where each
// comes from), replayed by a real local HTTP server: the shapes in which TRON differs from Ethereum.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/tron-jsonrpc/${name}.json`, import.meta.url), 'utf8'));

const NILE_USDT = accountHex(FAMILY.tron, 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf');
const BLOCK = 0x3fe1c00n;
const KEY = 'b7c1e0d2-3f4a-4b5c-8d9e-abcdef012345';

interface Call {
  method: string;
  params: any[];
  headers: IncomingHttpHeaders;
}
type Answer = { status?: number; body: unknown };
let answer: (call: Call) => Answer;
let calls: Call[];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const request = JSON.parse(text);
      const call = { method: request.method, params: request.params, headers: req.headers };
      calls.push(call);
      const { status = 200, body } = answer(call);
      const withId =
        typeof body === 'object' && body && 'jsonrpc' in body ? { ...body, id: request.id } : body;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(withId));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jsonrpc`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  calls = [];
  answer = nodeAnswers;
});

/** What a Nile full node answers, from the recordings; a tag it does not support gets its documented error. */
function nodeAnswers({ method, params }: Call): Answer {
  if (method === 'eth_blockNumber') return { body: fixture('eth_blockNumber') };
  if (method === 'eth_getBlockByNumber') {
    if (params[0] === 'pending' || params[0] === 'safe')
      return { body: fixture('eth_getBlockByNumber.pending') };
    return {
      body: fixture(BigInt(params[0]) === BLOCK ? 'eth_getBlockByNumber' : 'eth_getBlockByNumber.not-found'),
    };
  }
  if (method === 'eth_getLogs') return { body: fixture('eth_getLogs.transfers') };
  return { body: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: `${method} not recorded` } } };
}

const tronReader = (headers?: Record<string, string>): ChainReader =>
  chainReader(url, { family: FAMILY.tron, headers });

async function failure(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

describe('reading a TRON node', () => {
  test('the head, a block and its time come from the same calls as on Ethereum', async () => {
    const reader = tronReader();
    expect(await reader.head()).toBe(0x3fe1decn);
    expect(await reader.blockHash(BLOCK)).toBe(
      '0x0000000003fe1c00462b498ddae67717e96c785078adb5ccb7279148916e6f97',
    );
    expect(await reader.blockTime(BLOCK)).toBe(0x69f18a5cn);
    // A height the node does not have is null, as after a reorganisation that shortened the chain.
    expect(await reader.blockHash(BLOCK + 1n)).toBeNull();
    for (const c of calls.filter((c) => c.method === 'eth_getBlockByNumber')) {
      expect(c.params[0]).toMatch(/^0x[0-9a-f]+$/); // never a tag TRON refuses (pending, safe)
    }
  });

  test('a Transfer log becomes a payment to a T-address, with the txid as Tronscan writes it', async () => {
    const logs = await tronReader().transfers([NILE_USDT], BLOCK, BLOCK);
    expect(logs).toEqual([
      {
        token: '0xeca9bc828a3005b9a3b909f2cc5c2a54794de05f',
        // The sender as JSON-RPC names it in every family (lower-case hex), as the token is.
        from: '0xdd791d6b49e190062d650e6a23c575510d35f2f9',
        to: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
        value: 10_500_000n,
        txHash: '95aad4dfc3d5d389291c093425d06b2ce5a97b5b4953645316371158ebde3f27',
        blockNumber: BLOCK,
        blockHash: '0x0000000003fe1c00462b498ddae67717e96c785078adb5ccb7279148916e6f97',
      },
    ]); // the zero-value log pays nothing and is left out
  });

  test('the log filter names contracts by 20-byte hex: never T…, never the 41 prefix', async () => {
    await tronReader().transfers([NILE_USDT], BLOCK, BLOCK + 19n);
    const [filter] = calls.find((c) => c.method === 'eth_getLogs')?.params ?? [];
    expect(filter).toEqual({
      address: ['0xeca9bc828a3005b9a3b909f2cc5c2a54794de05f'],
      topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'],
      fromBlock: '0x3fe1c00',
      toBlock: '0x3fe1c13',
    });
  });

  test('sends the TronGrid key header on every call when it has one, and none otherwise', async () => {
    await tronReader({ 'TRON-PRO-API-KEY': KEY }).head();
    await tronReader().head();
    expect(calls.map((c) => c.headers['tron-pro-api-key'])).toEqual([KEY, undefined]);
  });
});

describe('when the node refuses', () => {
  test('more than 10,000 results: the range is asked again in halves, each block exactly once', async () => {
    answer = (call) => {
      const [{ fromBlock, toBlock }] = call.params;
      const wide = BigInt(toBlock) - BigInt(fromBlock) >= 4n;
      return { body: wide ? fixture('eth_getLogs.too-many-results') : { jsonrpc: '2.0', id: 1, result: [] } };
    };
    expect(await tronReader().transfers([NILE_USDT], 100n, 119n)).toEqual([]);
    const narrow = calls
      .map((c) => [BigInt(c.params[0].fromBlock), BigInt(c.params[0].toBlock)] as const)
      .filter(([from, to]) => to - from < 4n);
    const covered = narrow.flatMap(([from, to]) =>
      Array.from({ length: Number(to - from + 1n) }, (_, i) => from + BigInt(i)),
    );
    expect(covered).toEqual(Array.from({ length: 20 }, (_, i) => 100n + BigInt(i)));
  });

  test('a range over the node’s maximum fails with the node’s own words', async () => {
    answer = () => ({ body: fixture('eth_getLogs.max-block-range') });
    const error = await failure(tronReader().transfers([NILE_USDT], 0n, 6000n));
    expect(error.message).toBe('eth_getLogs failed: exceed max block range: 5000');
    expect(calls).toHaveLength(1);
  });

  test('TronGrid’s 403 rate limit is not hammered: one call, a hint, and neither key nor URL in the error', async () => {
    answer = () => ({ status: 403, body: fixture('trongrid-403') });
    const error = await failure(tronReader({ 'TRON-PRO-API-KEY': KEY }).head());
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/HTTP 403.*set PAYDESK_TRONGRID_API_KEY/);
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain('127.0.0.1');
    expect(calls).toHaveLength(1);
  });

  test('a 503 (TronGrid over its per-second rate) is asked again, then answered', async () => {
    let n = 0;
    answer = (call) => (++n <= 2 ? { status: 503, body: { Error: 'busy' } } : nodeAnswers(call));
    expect(await tronReader().head()).toBe(0x3fe1decn);
    expect(calls).toHaveLength(3);
  });
});
