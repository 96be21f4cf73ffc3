import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import { deployTokens, LOCAL, localNetworkEnv } from '../../test/chain-app.js';

/**
 * Contract §21, "Only watched networks are offered", with a node that drops a call now and then (a
 * provider's 502): its first question at start failing must not leave the network unwatched. A real
 * Hardhat node behind a proxy that answers the first two calls with 502.
 */
let chain: LocalChain;
let proxy: http.Server;
let t: TestApp;
let refused = 0;

beforeAll(async () => {
  chain = await startChain();
  const tokens = await deployTokens(chain);
  proxy = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => {
      body += c;
    });
    req.on('end', async () => {
      if (refused < 2) {
        refused++;
        res.writeHead(502).end('bad gateway');
        return;
      }
      const upstream = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const rpcUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  t = await startTestApp({ env: localNetworkEnv(chain, tokens, { rpcUrl }) });
}, 90_000);

afterAll(async () => {
  await t?.close();
  proxy?.close();
  await stopAllChains();
});

test('a node whose first calls at start fail is watched as soon as it answers: the first invoice offers it', async () => {
  const m = await createMerchant(t.app, { network: LOCAL, currency: 'USDT', xpub: TEST_XPUB });
  const res = await createInvoice(t.app, m, { amount: '10.00' });
  expect(res.statusCode, res.body).toBe(201);
  expect(refused).toBe(2);
  const networks = (await t.app.inject({ url: '/v1/health' })).json().data.networks;
  expect(networks).toContainEqual(expect.objectContaining({ network: LOCAL, status: 'ok' }));
});
