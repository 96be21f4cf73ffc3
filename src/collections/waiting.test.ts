import { randomBytes } from 'node:crypto';
import { type Address, getAddress, type Hex, parseGwei, parseTransaction } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Merchant } from '../../test/app.js';
import { ADMIN_TOKEN, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains, TOKEN_ABI } from '../../test/chain.js';
import { type ChainTokens, deployTokens, getInvoice, LOCAL, localNetworkEnv } from '../../test/chain-app.js';
import { type DashboardUser, merchantWithOwner } from '../../test/dashboard.js';
import { onPostgres } from '../../test/database.js';
import { installFactory } from '../../test/forwarders.js';
import { eventually } from '../../test/webhooks.js';
import { collectorContext } from './collector.job.js';
import { collectStep } from './collector.js';
import type { CollectorContext } from './context.js';

/**
 * Collections that wait (contract §22), on one Hardhat node mining only when told (automine off):
 * a transaction priced out by a rising base fee is replaced after PAYDESK_COLLECT_REPLACE_BLOCKS
 * blocks with the same nonce and higher fees, never above PAYDESK_COLLECT_MAX_FEE_GWEI; a replaced
 * transaction mined after all still confirms it; an instance that lost the lead stores nothing; a
 * deposit under PAYDESK_COLLECT_MIN_DEPOSIT_USD goes only with a larger one of its forwarder. The
 * app watches the chain; the collector's rounds are run here, one at a time, so blocks, not time,
 * decide what happens.
 */

let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
let owner: DashboardUser;
let a: CollectorContext;
const clock = manualClock();
const key: Hex = `0x${randomBytes(32).toString('hex')}`;
const payout = getAddress(`0x${randomBytes(20).toString('hex')}`);
const CAP_GWEI = 1000n;
const env = (c: LocalChain, k: ChainTokens) => ({
  ...localNetworkEnv(c, k),
  PAYDESK_COLLECTOR_KEY: key,
  PAYDESK_COLLECT_MIN_USD: '1000000',
  PAYDESK_COLLECT_REPLACE_BLOCKS: '20',
  PAYDESK_COLLECT_MAX_FEE_GWEI: String(CAP_GWEI),
});

/** The collector of `app` as one instance runs it (`holder` names the instance). */
function collector(app: TestApp, holder: string) {
  const { config } = app.app;
  return collectorContext(
    {
      db: app.database.db,
      networks: config.networks,
      collectorKey: config.collectorKey,
      minUsd: config.collectMinUsd,
      minDepositUsd: config.collectMinDepositUsd,
      replaceBlocks: config.collectReplaceBlocks,
      maxFeeGwei: config.collectMaxFeeGwei,
      clock,
      log: app.app.log,
    },
    config.networks.get(LOCAL) as NonNullable<ReturnType<typeof config.networks.get>>,
    holder,
  );
}

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  await installFactory(chain);
  await chain.wallet.sendTransaction({ to: privateKeyToAccount(key).address, value: 10n ** 20n });
  t = await startTestApp({ clock, workers: [`chain-scan:${LOCAL}`], env: env(chain, tokens) });
  ({ m, owner } = await merchantWithOwner(t.app, 'owner@waiting.test', {
    network: LOCAL,
    currency: 'USD',
    xpub: TEST_XPUB,
    payout_address: payout,
  }));
  a = await collector(t, 'instance-a');
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const units = (amount: string) => BigInt(Math.round(Number(amount) * 1e6));
const step = (ctx: CollectorContext = a) => collectStep(ctx);
const balanceOf = async (token: Address, owner: Address) =>
  (await chain.publicClient.readContract({
    address: token,
    abi: TOKEN_ABI,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;

/** An invoice paid on chain (one transfer per token given) and confirmed by the app's watcher. */
async function paid(amount: string, transfers: Array<[Address, string]> = [[tokens.usdt, amount]]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/merchant/invoices',
    headers: m.auth,
    payload: { amount },
  });
  const inv = res.json().data as { id: string; payment_methods: Array<{ pay_address: Address }> };
  const address = inv.payment_methods[0]?.pay_address as Address;
  for (const [token, value] of transfers) await chain.transfer(token, address, units(value));
  await chain.mine(3);
  await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'paid');
  return { id: inv.id, address };
}

const collectNow = () =>
  t.app.inject({
    method: 'POST',
    url: `/v1/admin/projects/${m.projectId}/collections`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { network: LOCAL },
  });

const row = (id: string) =>
  t.database.db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const signed = (id: string) =>
  t.database.db
    .selectFrom('collection_transactions')
    .selectAll()
    .where('collection_id', '=', id)
    .orderBy('attempt')
    .execute();
const eventsOf = async (id: string) =>
  (
    await t.database.db
      .selectFrom('events')
      .select(['type', 'body'])
      .where('type', 'like', 'collection.%')
      .execute()
  )
    .filter((e) => JSON.parse(e.body).data.collection.id === id)
    .map((e) => e.type);

/** Blocks one at a time, each with the base fee EIP-1559 gives it (12.5 % less after an empty one). */
async function mineEach(n: number) {
  for (let i = 0; i < n; i++) await chain.mine(1);
}

/** Mines and runs rounds until the collection is confirmed (3 confirmations). */
async function confirm(id: string, ctx = a) {
  for (let i = 0; i < 6 && (await row(id)).phase !== 'confirmed'; i++) {
    await chain.mine(1);
    await step(ctx);
  }
  return row(id);
}

describe('a collection priced out by the base fee', () => {
  test('is replaced after 20 blocks with the same nonce and fees raised by at least 12.5 %', async () => {
    const inv = await paid('10.00');
    await chain.setAutomine(false);
    const id = (await collectNow()).json().data.collection.id;
    await step();
    const [first] = await signed(id);
    const old = parseTransaction(first?.raw_tx as Hex);
    // The base fee jumps above what the transaction offers: no block takes it.
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('100') });
    await mineEach(19);
    await step();
    expect(await signed(id)).toHaveLength(1);
    await mineEach(1);
    await step();
    const [, second] = await signed(id);
    const next = parseTransaction(second?.raw_tx as Hex);
    expect(next.nonce).toBe(old.nonce);
    expect(next.maxFeePerGas).toBeGreaterThanOrEqual(((old.maxFeePerGas as bigint) * 1125n) / 1000n);
    expect(next.maxPriorityFeePerGas).toBeGreaterThanOrEqual(
      ((old.maxPriorityFeePerGas as bigint) * 1125n) / 1000n,
    );
    const base = (await chain.publicClient.getBlock({ blockTag: 'pending' })).baseFeePerGas as bigint;
    expect(next.maxFeePerGas).toBeGreaterThan(base);
    expect(await row(id)).toMatchObject({ phase: 'signed', attempts: 2, tx_hash: second?.tx_hash });
    const done = await confirm(id);
    expect(done.tx_hash).toBe(second?.tx_hash);
    expect(await balanceOf(tokens.usdt, inv.address)).toBe(0n);
    expect(await eventsOf(id)).toEqual(['collection.confirmed']);
  });

  test('waits at the fee cap, and the dashboard says what it needs; a replaced transaction mined still confirms it', async () => {
    await paid('11.00');
    await chain.setAutomine(false);
    const id = (await collectNow()).json().data.collection.id;
    await step();
    const [first] = await signed(id);
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('100000') });
    await mineEach(20);
    await step();
    const waiting = await row(id);
    expect(waiting).toMatchObject({
      phase: 'signed',
      attempts: 1,
      last_error: 'fee_cap',
      fee_cap: String(parseGwei('1000')),
    });
    expect(BigInt(waiting.fee_needed ?? 0)).toBeGreaterThan(parseGwei('1000'));
    const page = (await owner.get('/dashboard/collections')).body;
    expect(page).toContain('Waiting at the fee cap: it needs');
    expect(page).toContain('the cap (PAYDESK_COLLECT_MAX_FEE_GWEI) is 1,000 gwei');
    // The fee falls: a replacement under the cap is signed. Then the node loses it, and the first
    // transaction, sent again by someone, is the one mined.
    await chain.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: parseGwei('1') });
    await step();
    const all = await signed(id);
    expect(all).toHaveLength(2);
    for (const s of all)
      expect(parseTransaction(s.raw_tx as Hex).maxFeePerGas).toBeLessThanOrEqual(parseGwei('1000'));
    await chain.testClient.dropTransaction({ hash: all[1]?.tx_hash as Hex });
    await chain.publicClient.sendRawTransaction({ serializedTransaction: first?.raw_tx as Hex });
    const done = await confirm(id);
    expect(done).toMatchObject({ phase: 'confirmed', tx_hash: first?.tx_hash, last_error: null });
    expect(await eventsOf(id)).toEqual(['collection.confirmed']);
  });
});

describe('two instances', () => {
  test('one that lost the lead while signing stores nothing, and no collection fails', async () => {
    await paid('12.00');
    await chain.setAutomine(false);
    const id = (await collectNow()).json().data.collection.id;
    // B: another app on the same PostgreSQL database (on PGlite, another collector on the same one).
    const other = onPostgres
      ? await startTestApp({ databaseUrl: t.databaseUrl, env: env(chain, tokens) })
      : t;
    try {
      const b = await collector(other, 'instance-b');
      // A leads (it holds the lease's current term from the rounds above) and signs.
      const real = a.chain;
      if (!real) throw new Error('no collector chain');
      // A signs; meanwhile B takes the lead (its advisory lock), runs a whole round, and sends.
      a.chain = Object.assign(Object.create(real), {
        sign: async (...args: Parameters<typeof real.sign>) => {
          await step(b);
          return real.sign(...args);
        },
      });
      await step(a);
      a.chain = real;
      const stored = await signed(id);
      expect(stored).toHaveLength(1);
      expect(t.logs.some((l) => l.msg === 'collector lead lost to another instance: nothing stored')).toBe(
        true,
      );
      const done = await confirm(id, b);
      expect(done.tx_hash).toBe(stored[0]?.tx_hash);
      await step(a); // A leads again: it claims a new term and finds the collection done.
      expect(await eventsOf(id)).toEqual(['collection.confirmed']);
    } finally {
      if (other !== t) await other.close();
    }
  });
});

describe('deposits under PAYDESK_COLLECT_MIN_DEPOSIT_USD', () => {
  test('are never collected on their own, by "Collect now" or by age', async () => {
    const dust = await paid('0.50');
    const refused = await collectNow();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details.errors[0]).toMatchObject({ rule: 'nothing_to_collect' });
    expect(refused.json().error.details.errors[0].message).toContain('at least 1 USD');
    expect((await owner.get('/dashboard/collections')).body).toContain(
      'Below 1 USD, collected only together with a larger deposit to the same address: 0.50 USDT (1 deposit)',
    );
    clock.advance(25 * 60 * 60 * 1000);
    await step();
    const taken = await t.database.db
      .selectFrom('payments')
      .select('collection_id')
      .where('invoice_id', '=', dust.id)
      .execute();
    expect(taken.map((p) => p.collection_id)).toEqual([null]);
  });

  test('go together with a larger deposit of the same forwarder', async () => {
    const both = await paid('5.50', [
      [tokens.usdt, '5.00'],
      [tokens.usdc, '0.50'],
    ]);
    const before = await balanceOf(tokens.usdc, payout);
    const started = (await collectNow()).json().data.collection;
    // Two deposits (a forwarder and a token each), of one forwarder.
    expect(started).toMatchObject({ deposits: 2, amounts: { USDT: '5.00', USDC: '0.50' } });
    await step();
    await confirm(started.id);
    expect(await balanceOf(tokens.usdc, payout)).toBe(before + units('0.50'));
    expect(await balanceOf(tokens.usdc, both.address)).toBe(0n);
  });
});
