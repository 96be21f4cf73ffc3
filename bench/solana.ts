/**
 * The Solana watcher (contract §24, issue 35) on a local Solana runtime (LiteSVM behind the tests'
 * JSON-RPC server, test/solana/cluster.ts) and the real app with its workers, on a fresh PGlite
 * database (or PostgreSQL with BENCH_DATABASE_URL, an empty database of its own), in one process:
 *   - RPC calls per second while idle, and while payments arrive, with 10 and then 10,000 open invoices
 *     (BENCH_SOLANA_INVOICES) of BENCH_SOLANA_MERCHANTS merchant wallets (5);
 *   - detection latency: from the payment's transaction being `confirmed` (the slot after it landed)
 *     to its `seen_at` (written with `invoice.payment_detected`), p50 and p99, at the production poll
 *     of 1 s (BENCH_SOLANA_POLL_MS).
 *   npm run bench:solana
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createInvoice, createMerchant, type Merchant, startTestApp } from '../test/app.js';
import { closeAllSolana, startSolana } from '../test/solana/cluster.js';

const SIZES = [10, Number(process.env.BENCH_SOLANA_INVOICES ?? 10_000)];
const MERCHANTS = Number(process.env.BENCH_SOLANA_MERCHANTS ?? 5);
const POLL_MS = Number(process.env.BENCH_SOLANA_POLL_MS ?? 1000);
const IDLE_MS = 10_000;
const PAYMENTS = 40;

const solana = await startSolana();
const scratch = mkdtempSync(path.join(tmpdir(), 'paydesk-solana-'));
const databaseUrl = process.env.BENCH_DATABASE_URL || `pglite://${scratch}/db`;
const migrating = await openDatabase(databaseUrl);
await migrate(migrating.db);
await migrating.close();
const t = await startTestApp({
  workers: true,
  databaseUrl,
  env: {
    PAYDESK_NETWORKS: JSON.stringify([
      {
        name: 'benchsol',
        family: 'solana',
        testnet: true,
        pollIntervalMs: POLL_MS,
        tokens: {
          USDC: { mint: solana.mints.USDC, decimals: 6 },
          USDT: { mint: solana.mints.USDT, decimals: 6 },
        },
      },
    ]),
    PAYDESK_RPC_BENCHSOL: solana.rpcUrl,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
  },
});

const merchants: Array<{ wallet: string; m: Merchant }> = [];
for (let i = 0; i < MERCHANTS; i++) {
  const wallet = (await solana.newMerchant()).address;
  const m = await createMerchant(t.app, {
    currency: 'USD',
    payment_methods: [{ network: 'benchsol', currency: 'USDC' }],
    solana_address: wallet,
    invoice_ttl_seconds: 7 * 24 * 3600,
  });
  merchants.push({ wallet, m });
}

const totalCalls = () => Object.values(solana.calls()).reduce((a, b) => a + b, 0);
let open: Array<{ id: string; reference: string; wallet: string }> = [];

/** Creates invoices 50 at a time (the API's group commit batches them), round robin over the merchants. */
async function openInvoices(n: number): Promise<void> {
  while (open.length < n) {
    const batch = Array.from({ length: Math.min(50, n - open.length) }, (_, i) => {
      const { wallet, m } = merchants[(open.length + i) % MERCHANTS] as (typeof merchants)[number];
      return createInvoice(t.app, m, { amount: '1.00' }).then((r) => ({
        id: r.json().data.id as string,
        wallet,
      }));
    });
    const made = await Promise.all(batch);
    const refs = await t.database.db
      .selectFrom('invoices')
      .select(['id', 'solana_reference'])
      .where(
        'id',
        'in',
        made.map((i) => i.id),
      )
      .execute();
    const byId = new Map(refs.map((r) => [r.id, r.solana_reference as string]));
    for (const i of made) open.push({ ...i, reference: byId.get(i.id) as string });
  }
}

async function callsPerSecond(ms: number, during?: () => Promise<void>): Promise<number> {
  const start = totalCalls();
  const began = Date.now();
  if (during) await during();
  else await new Promise((r) => setTimeout(r, ms));
  return ((totalCalls() - start) * 1000) / (Date.now() - began);
}

const seenAt = async (sig: string) =>
  t.database.db.selectFrom('payments').select('seen_at').where('tx_hash', '=', sig).executeTakeFirst();

/** Pays PAYMENTS open invoices one after another; each latency from `confirmed` to `seen_at`. */
async function payments(latencies: number[]): Promise<void> {
  const payer = await solana.newPayer({ USDC: 10n ** 12n });
  for (let i = 0; i < PAYMENTS; i++) {
    // At a random moment of the poll: payments in a row would otherwise each land just after a step.
    await new Promise((r) => setTimeout(r, Math.random() * POLL_MS));
    const inv = open.shift() as (typeof open)[number];
    const sig = await solana.pay(payer, {
      recipient: inv.wallet,
      mint: solana.mints.USDC,
      amount: 1_000_000n,
      references: [inv.reference],
    });
    solana.advance(); // the slot after the transaction's: it is confirmed now
    const confirmedAt = Date.now();
    for (;;) {
      const row = await seenAt(sig);
      if (row) {
        latencies.push(row.seen_at.getTime() - confirmedAt);
        break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
};

const rows: string[] = [];
for (const size of SIZES) {
  const made = Date.now();
  await openInvoices(size + PAYMENTS);
  const seeded = Date.now() - made;
  await new Promise((r) => setTimeout(r, 2 * POLL_MS));
  const idle = await callsPerSecond(IDLE_MS);
  const latencies: number[] = [];
  const load = await callsPerSecond(0, () => payments(latencies));
  rows.push(
    `| ${size.toLocaleString('en')} | ${MERCHANTS} (${MERCHANTS * 2} token accounts) | ${idle.toFixed(1)} | ${load.toFixed(1)} | ${pct(latencies, 50)} / ${pct(latencies, 99)} ms | ${(seeded / 1000).toFixed(0)} s |`,
  );
  open = open.slice(0, size); // what the next size builds on
}

console.log(
  `Solana watcher, poll ${POLL_MS} ms, ${PAYMENTS} payments per size, ${databaseUrl.split(':')[0]}`,
);
console.log(
  '| open invoices | merchant wallets | RPC calls/s idle | RPC calls/s under load | confirmed → detected p50 / p99 | invoices made in |',
);
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
await t.close();
await closeAllSolana();
