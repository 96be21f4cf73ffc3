import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Address } from 'viem';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_XPUB } from './chain/wallet.js';
import { startChain, stopAllChains } from './chain.js';
import { deployTokens, localNetworkEnv } from './chain-app.js';
import { freshDatabase, onPostgres } from './database.js';
import { callPaydesk, demoFolder, killAll, removeTempDirs, startPaydesk, tempDir } from './process.js';

const ADMIN_TOKEN = 'chain-recovery-admin-token-7Hq2Lp';
const SLOW = 240_000;

afterEach(killAll);
afterAll(async () => {
  await stopAllChains();
  await removeTempDirs();
});

/** A JSON-RPC proxy in front of the node that answers a share of the requests with a 502. */
async function flakyProxy(target: string, failureRate: number) {
  let n = 0;
  let failed = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => {
      body += c;
    });
    req.on('end', async () => {
      n++;
      if (Math.random() < failureRate) {
        failed++;
        res.writeHead(502).end('bad gateway');
        return;
      }
      const upstream = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failed: () => failed,
    requests: () => n,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('the chain watcher survives crashes and a flaky node', () => {
  it(
    'SIGKILLed half-way through a backlog, with one RPC call in ten failing, it counts every transfer exactly once',
    async () => {
      const chain = await startChain();
      const tokens = await deployTokens(chain);
      const proxy = await flakyProxy(chain.rpcUrl, 0.1);
      const db = await freshDatabase();
      // On PGlite, a folder `npm start` has already initialised: the test is about the restart, not initdb.
      const { cwd } = onPostgres ? { cwd: await tempDir() } : await demoFolder();
      const env = {
        ...(onPostgres ? { DATABASE_URL: db.url } : {}),
        PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN,
        RATE_LIMIT_MAX: '100000',
        // Small ranges, so that the backlog takes many steps and a kill lands between two of them.
        ...localNetworkEnv(chain, tokens, { confirmations: 2, maxBlockRange: 4, rpcUrl: proxy.url }),
      };
      let proc = await startPaydesk({ cwd, env });
      await proc.ready();
      const call = (method: string, url: string, body?: object, token = ADMIN_TOKEN) =>
        callPaydesk(proc.baseUrl, method, url, token, body);
      const account = await call('POST', '/v1/admin/accounts', { name: 'shop' });
      const project = await call('POST', '/v1/admin/projects', {
        account_id: account.id,
        name: 'shop',
        network: 'localchain',
        xpub: TEST_XPUB,
      });
      const key = await call('POST', `/v1/admin/projects/${project.id}/api-keys`, {});
      const invoices: Array<{ id: string; pay_address: Address }> = [];
      for (let i = 0; i < 8; i++) {
        invoices.push(await call('POST', '/v1/merchant/invoices', { amount: '7.00' }, key.secret));
      }
      expect(new Set(invoices.map((i) => i.pay_address)).size).toBe(8);
      await proc.stop('SIGTERM');

      // While Paydesk is down: two partial payments per invoice (3 + 4), spread over ~100 blocks.
      for (const inv of invoices) {
        await chain.transfer(tokens.usdt, inv.pay_address, 3_000_000n);
        await chain.mine(5);
        await chain.transfer(tokens.usdt, inv.pay_address, 4_000_000n);
        await chain.mine(5);
      }

      const status = async () =>
        Promise.all(
          invoices.map((inv) => call('GET', `/v1/merchant/invoices/${inv.id}`, undefined, key.secret)),
        );
      // Second life: killed as soon as it has counted some of the backlog but not all of it.
      proc = await startPaydesk({ cwd, env });
      await proc.ready();
      let counted = 0;
      for (let i = 0; i < 600 && counted === 0; i++) {
        counted = (await status()).filter((s) => s.amount_paid !== '0.00').length;
        if (counted === 0) await new Promise((r) => setTimeout(r, 25));
      }
      expect((await proc.stop('SIGKILL')).signal).toBe('SIGKILL');
      expect(counted, 'killed before anything was counted').toBeGreaterThan(0);
      expect(counted, 'killed only after the whole backlog was counted').toBeLessThan(invoices.length);
      // Third life: it resumes from the cursor.
      proc = await startPaydesk({ cwd, env });
      await proc.ready();
      const deadline = Date.now() + 90_000;
      let final = await status();
      while (final.some((s) => s.status !== 'paid') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        final = await status();
      }
      for (const s of final) expect(s).toMatchObject({ status: 'paid', amount_paid: '7.00' });
      expect(proxy.failed()).toBeGreaterThan(0);
      expect((await proc.stop('SIGTERM')).code).toBe(0);
      await proxy.close();
      await chain.stop();
      await db.drop();
    },
    SLOW,
  );
});
