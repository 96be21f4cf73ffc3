import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../src/db/schema.js';
import { money, toTokenUnits } from '../src/money/money.js';
import { checksumAddress } from '../src/networks/evm-address.js';
import { recordRefundPayments, type WatchedNetwork } from '../src/refunds/watch.js';
import { admin, createInvoice, type Merchant } from './app.js';

/**
 * Refunds on the sandbox network for the race and model-based tests: made and claimed through the
 * real HTTP app, paid by calling the watcher's own entry point (watch.ts) with a transfer a chain
 * watcher would report, on any instance's database handle.
 */

/** The sandbox's USDT as the watcher sees it: a made-up contract, 6 decimals. */
export const SANDBOX_WATCH: WatchedNetwork = {
  name: 'sandbox',
  tokens: new Map([['USDT', { address: `0x${'ab'.repeat(20)}`, decimals: 6 }]]),
};

/** The block the tests' transfers are in: buried once the watcher's depth reaches it. */
export const TRANSFER_BLOCK = 9n;

/** A payer address of its own for each refund: a transfer to it pays that refund and no other. */
export const newPayer = () => checksumAddress(`0x${randomBytes(20).toString('hex')}`);

/** A paid 40.00 invoice with a 10.00 refund awaiting its address. */
export async function newRefund(app: FastifyInstance, m: Merchant) {
  const inv = (await createInvoice(app, m, { amount: '40.00' })).json().data;
  await admin(app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
  const made = await app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${inv.id}/refunds`,
    headers: m.auth,
    payload: { amount: '10.00' },
  });
  const refund = made.json().data.refund;
  return { invoiceId: inv.id as string, refundId: refund.id as string, claimUrl: refund.claim_url as string };
}

/**
 * The payer's answer on the claim page: sandbox USDT to `address`. Each from a payer of its own
 * (another client address): the claim page's per-address limit (60 a minute) is not under test here.
 */
export const claim = (app: FastifyInstance, claimUrl: string, address: string) =>
  app.inject({
    method: 'POST',
    url: new URL(claimUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ method: 'sandbox:USDT', address }).toString(),
    remoteAddress: `10.${[...randomBytes(3)].join('.')}`,
  });

/** A refund claimed by a payer of its own: ready to send. */
export async function readyRefund(app: FastifyInstance, m: Merchant) {
  const made = await newRefund(app, m);
  const payer = newPayer();
  const claimed = await claim(app, made.claimUrl, payer);
  if (claimed.statusCode >= 400) throw new Error(`claim → ${claimed.statusCode} ${claimed.body}`);
  return { ...made, payer };
}

/** The merchant API's cancel, as a status and the refused rule if any. */
export async function apiCancel(
  app: FastifyInstance,
  m: Merchant,
  ref: { invoiceId: string; refundId: string },
) {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${ref.invoiceId}/refunds/${ref.refundId}/cancel`,
    headers: m.auth,
  });
  return { status: res.statusCode, rule: res.json().error?.details?.errors?.[0]?.rule as string | undefined };
}

let transfers = 0;

/**
 * The watcher's step: one transfer of 10.00 to `payer` in TRANSFER_BLOCK, reported in `tx` (the
 * transaction that moves a watcher's cursor); `final` when the watcher's depth already buries it.
 */
export function watcherSees(tx: Transaction<Database>, payer: string, final = true) {
  transfers += 1;
  const transfer = {
    token: `0x${'ab'.repeat(20)}`,
    to: payer,
    value: toTokenUnits(money('10'), 6),
    txHash: `0x${transfers.toString(16).padStart(64, '0')}`,
    blockNumber: TRANSFER_BLOCK,
  };
  return recordRefundPayments(
    tx,
    SANDBOX_WATCH,
    [transfer],
    final ? TRANSFER_BLOCK : TRANSFER_BLOCK - 1n,
    new Date(),
  );
}

/** The refund's status, its invoice's refunded total and how many refund events were written. */
export async function refundOutcome(db: Kysely<Database>, invoiceId: string, refundId: string) {
  const refund = await db
    .selectFrom('refunds')
    .select('status')
    .where('id', '=', refundId)
    .executeTakeFirstOrThrow();
  const invoice = await db
    .selectFrom('invoices')
    .select('amount_refunded')
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  const events = await db.selectFrom('events').select('type').where('invoice_id', '=', invoiceId).execute();
  const count = (type: string) => events.filter((e) => e.type === type).length;
  return {
    status: refund.status,
    refunded: money(invoice.amount_refunded),
    ready: count('refund.ready'),
    confirmed: count('refund.confirmed'),
  };
}

/** Waits until some connection waits for a row lock (PostgreSQL): the state, never a duration. */
export async function someoneWaitsForALock(db: Kysely<Database>) {
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks where not granted and locktype in ('transactionid', 'tuple')`.execute(
      db,
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setImmediate(r));
  }
}

/** Runs `work` in a transaction of `db` that stays open, its locks held, until `commit` is called. */
export function holdOpen(db: Kysely<Database>, work: (tx: Transaction<Database>) => Promise<unknown>) {
  let commit!: () => void;
  const gate = new Promise<void>((r) => {
    commit = r;
  });
  let held!: () => void;
  const holding = new Promise<void>((r) => {
    held = r;
  });
  const done = db.transaction().execute(async (tx) => {
    await work(tx);
    held();
    await gate;
  });
  return { holding, commit, done };
}
