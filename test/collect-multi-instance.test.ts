import { randomBytes } from 'node:crypto';
import { type Address, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './app.js';
import { type LocalChain, startChain, stopAllChains, TOKEN_ABI } from './chain.js';
import { type ChainTokens, chainMerchant, deployTokens, LOCAL, localNetworkEnv } from './chain-app.js';
import { freshDatabase, onPostgres } from './database.js';
import { installFactory } from './forwarders.js';
import { eventually } from './webhooks.js';

/**
 * Two instances with their workers and one collector key on one PostgreSQL (contract §16): "Collect
 * now" pressed on both at once, again and again, never puts a deposit in two collections, and one
 * instance at a time signs, so no nonce is handed out twice.
 */
describe.skipIf(!onPostgres)('collections on several instances', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let chain: LocalChain;
  let tokens: ChainTokens;
  let a: TestApp;
  let b: TestApp;
  const key: Hex = `0x${randomBytes(32).toString('hex')}`;
  const payout = getAddress(`0x${randomBytes(20).toString('hex')}`);

  beforeAll(async () => {
    database = await freshDatabase();
    chain = await startChain();
    tokens = await deployTokens(chain);
    await installFactory(chain);
    await chain.wallet.sendTransaction({ to: privateKeyToAccount(key).address, value: 10n ** 18n });
    const env = {
      ...localNetworkEnv(chain, tokens),
      PAYDESK_COLLECTOR_KEY: key,
      PAYDESK_COLLECT_MIN_USD: '1000000',
    };
    a = await startTestApp({ databaseUrl: database.url, workers: true, env });
    b = await startTestApp({ databaseUrl: database.url, workers: true, env });
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await stopAllChains();
    await database?.drop();
  });

  const leading = (t: TestApp) =>
    t.logs.filter((l) => l.msg === 'job leadership' && l.job === `collect:${LOCAL}` && l.leading === true)
      .length;

  test('each deposit is collected once, by one signer', async () => {
    const m = await chainMerchant(a, { payout_address: payout });
    const addresses: Address[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await (i % 2 ? a : b).app.inject({
        method: 'POST',
        url: '/v1/merchant/invoices',
        headers: m.auth,
        payload: { amount: '1.00' },
      });
      addresses.push(res.json().data.pay_address);
    }
    await chain.batchTransfer(
      tokens.usdt,
      addresses,
      addresses.map(() => 1_000_000n),
    );
    await chain.mine(3);
    await eventually(async () => {
      const paid = await a.database.db
        .selectFrom('payments')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '=', 'confirmed')
        .executeTakeFirstOrThrow();
      return Number(paid.n) === 30;
    });
    // Both instances, four times each, at once.
    const press = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/admin/projects/${m.projectId}/collections`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { network: LOCAL },
      });
    const answers = await Promise.all([a, b, a, b, a, b, a, b].map(press));
    expect(answers.filter((r) => r.statusCode === 202).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((r) => r.statusCode === 202 || r.statusCode === 422)).toBe(true);

    const done = await eventually(async () => {
      await chain.mine(1);
      const rows = await a.database.db.selectFrom('collections').selectAll().execute();
      return rows.length > 0 && rows.every((r) => r.phase === 'confirmed') && rows;
    }, 30_000);
    const nonces = done.map((r) => r.nonce);
    expect(new Set(nonces).size).toBe(nonces.length);
    // One transaction stored per collection (none had to be replaced), and no false failure.
    const stored = await a.database.db
      .selectFrom('collection_transactions')
      .select('collection_id')
      .execute();
    expect(stored.map((s) => s.collection_id).sort()).toEqual(done.map((r) => r.id).sort());
    const failed = await a.database.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'collection.failed')
      .execute();
    expect(failed).toEqual([]);
    const taken = await a.database.db.selectFrom('payments').select(['collection_id']).execute();
    expect(taken.every((p) => p.collection_id !== null)).toBe(true);
    const balance = (await chain.publicClient.readContract({
      address: tokens.usdt,
      abi: TOKEN_ABI,
      functionName: 'balanceOf',
      args: [payout],
    })) as bigint;
    expect(balance).toBe(30_000_000n);
    expect(leading(a) + leading(b)).toBe(1);
  });
});
