/**
 * Collections end to end (contract §16, issue 23), on one local Hardhat node mining a block a second
 * (as a chain does, rather than one block per transaction) and the real app with its workers (the
 * chain watcher and the collector) on PGlite, or on PostgreSQL with BENCH_DATABASE_URL (an empty
 * database of its own: it is migrated here):
 *   - "Collect now" to `collection.confirmed`, for one deposit, with the network's depth of 3 blocks;
 *   - 1,000 deposits (USDT, paid and confirmed), then "Collect now": how many collections and
 *     transactions, the gas in all and per deposit, and the time until the last is confirmed.
 *   npm run bench:collections   (BENCH_COLLECT_DEPOSITS to change the 1,000)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../test/app.js';
import { startChain, stopAllChains } from '../test/chain.js';
import { chainMerchant, deployTokens, LOCAL, localNetworkEnv } from '../test/chain-app.js';
import { installFactory } from '../test/forwarders.js';

const DEPOSITS = Number(process.env.BENCH_COLLECT_DEPOSITS ?? 1000);
const BLOCK_MS = 1000;

const chain = await startChain();
const tokens = await deployTokens(chain);
await installFactory(chain);
const key: Hex = `0x${randomBytes(32).toString('hex')}`;
await chain.wallet.sendTransaction({ to: privateKeyToAccount(key).address, value: 10n ** 20n });
// A fresh embedded database, migrated here: the tests' fresh databases come from vitest's global setup.
const scratch = mkdtempSync(path.join(tmpdir(), 'paydesk-collections-'));
const databaseUrl = process.env.BENCH_DATABASE_URL || `pglite://${scratch}/db`;
const migrating = await openDatabase(databaseUrl);
await migrate(migrating.db);
await migrating.close();
const t: TestApp = await startTestApp({
  workers: true,
  databaseUrl,
  env: {
    ...localNetworkEnv(chain, tokens),
    PAYDESK_COLLECTOR_KEY: key,
    PAYDESK_COLLECT_MIN_USD: '1000000000',
    LOG_LEVEL: 'warn',
  },
});
const payout = getAddress(`0x${randomBytes(20).toString('hex')}`);
const m = await chainMerchant(t, { payout_address: payout });
await chain.testClient.request({ method: 'evm_setIntervalMining', params: [BLOCK_MS] } as never);

const collections = async () =>
  (
    await t.app.inject({
      url: `/v1/admin/projects/${m.projectId}/collections`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    })
  ).json().data as Array<{ id: string; status: string; gas_used: number | null; deposits: number }>;

async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates `n` invoices and pays each with one transfer of a batch, then waits until all are confirmed. */
async function paid(n: number, amount = 1_000_000n): Promise<void> {
  const paidSoFar = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('invoices')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('project_id', '=', m.projectId)
          .where('status', '=', 'paid')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await paidSoFar();
  const addresses: Address[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/merchant/invoices',
      headers: m.auth,
      payload: { amount: '1.00' },
    });
    addresses.push(res.json().data.pay_address as Address);
  }
  for (let i = 0; i < n; i += 200) {
    const to = addresses.slice(i, i + 200);
    await chain.batchTransfer(
      tokens.usdt,
      to,
      to.map(() => amount),
    );
  }
  await until(async () => (await paidSoFar()) >= before + n);
}

async function collectNow(): Promise<{ id: string; startedAt: number }> {
  const startedAt = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/admin/projects/${m.projectId}/collections`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { network: LOCAL },
  });
  if (res.statusCode !== 202) throw new Error(`Collect now → ${res.statusCode} ${res.body}`);
  return { id: res.json().data.collection.id, startedAt };
}

try {
  process.stdout.write(`Collections on a local chain: a block every ${BLOCK_MS} ms, 3 confirmations\n`);
  // Latency: one deposit, five times.
  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    await paid(1);
    const { id, startedAt } = await collectNow();
    await until(async () => (await collections()).find((c) => c.id === id && c.status === 'confirmed'));
    latencies.push(performance.now() - startedAt);
  }
  latencies.sort((a, b) => a - b);
  process.stdout.write(
    `  "Collect now" → collection.confirmed, 1 deposit: median ${Math.round(latencies[2] as number)} ms (min ${Math.round(latencies[0] as number)}, max ${Math.round(latencies[4] as number)})\n`,
  );

  // 1,000 deposits in one "Collect now".
  const before = new Set((await collections()).map((c) => c.id));
  await paid(DEPOSITS);
  const { startedAt } = await collectNow();
  const made = await until(async () => {
    const mine = (await collections()).filter((c) => !before.has(c.id));
    return mine.length > 0 && mine.every((c) => c.status === 'confirmed') && mine;
  });
  const ms = performance.now() - startedAt;
  const gas = made.reduce((sum, c) => sum + (c.gas_used ?? 0), 0);
  const deposits = made.reduce((sum, c) => sum + c.deposits, 0);
  process.stdout.write(
    `  ${deposits} deposits: ${made.length} collections (one transaction each), ${gas.toLocaleString('en-US')} gas in all, ${Math.round(gas / deposits).toLocaleString('en-US')} per deposit, all confirmed ${Math.round(ms)} ms after "Collect now"\n`,
  );
} finally {
  await t.close();
  await stopAllChains();
  rmSync(scratch, { recursive: true, force: true });
}
