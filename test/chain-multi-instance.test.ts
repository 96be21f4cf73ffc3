import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from './app.js';
import { type LocalChain, startChain, stopAllChains } from './chain.js';
import {
  type ChainTokens,
  chainMerchant,
  deployTokens,
  getInvoice,
  LOCAL,
  localNetworkEnv,
  newInvoice,
} from './chain-app.js';
import { freshDatabase, onPostgres } from './database.js';
import { eventually } from './webhooks.js';

/** Two instances with their workers on one PostgreSQL: one watcher per network is active at a time. */
describe.skipIf(!onPostgres)('chain watchers on several instances', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let chain: LocalChain;
  let tokens: ChainTokens;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    database = await freshDatabase();
    chain = await startChain();
    tokens = await deployTokens(chain);
    const options = { databaseUrl: database.url, workers: true, env: localNetworkEnv(chain, tokens) };
    a = await startTestApp(options);
    b = await startTestApp(options);
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await stopAllChains();
    await database?.drop();
  });

  const leading = (t: TestApp) =>
    t.logs.filter((l) => l.msg === 'job leadership' && l.job === `chain-scan:${LOCAL}` && l.leading === true)
      .length;

  test('exactly one instance watches; payments are counted once; the other takes over when it stops', async () => {
    await eventually(async () => leading(a) + leading(b) === 1);

    const m = await chainMerchant(a);
    const inv = await newInvoice(b, m, '8.00');
    await chain.transfer(tokens.usdt, inv.pay_address as Address, 8_000_000n);
    await chain.mine(2);
    await eventually(async () => (await getInvoice(a, m, inv.id)).status === 'paid');
    const payments = await a.database.db
      .selectFrom('payments')
      .selectAll()
      .where('invoice_id', '=', inv.id)
      .execute();
    expect(payments).toHaveLength(1);
    // All the while (the standby retries every few seconds), the lock stayed with the first leader.
    expect(leading(a) + leading(b)).toBe(1);

    // The leader goes away: its lock is released and the standby takes the network over.
    const [leader, standby] = leading(a) === 1 ? [a, b] : [b, a];
    await leader.close();
    await eventually(async () => leading(standby) === 1, 15_000);
    const next = await newInvoice(standby, m, '2.00');
    await chain.transfer(tokens.usdt, next.pay_address as Address, 2_000_000n);
    await chain.mine(2);
    await eventually(async () => (await getInvoice(standby, m, next.id)).status === 'paid');
  }, 60_000);
});
