import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, createInvoice, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { type DashboardUser, merchantWithOwner } from '../../test/dashboard.js';
import { money, toTokenUnits } from '../money/money.js';
import { changeRefunds, each } from './change.js';
import { lockRefunds } from './lock.repository.js';
import { recordRefundPayments, type WatchedNetwork } from './watch.js';

/**
 * Contract §22: a merchant's cancel racing the watcher that sees the refund's transfer. Whichever
 * takes the refund's row lock first decides, and the other re-reads what it left: never canceled and
 * confirmed, `amount_refunded` right, no `refund.confirmed` for a canceled refund. On PostgreSQL one
 * side really holds the lock on its own connection while the other waits for it (seen in pg_locks, not
 * guessed from time); PGlite has one connection, so there the two orders are shown one after the other.
 */
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TOKEN = `0x${'ab'.repeat(20)}`;
const SANDBOX: WatchedNetwork = {
  name: 'sandbox',
  tokens: new Map([['USDT', { address: TOKEN, decimals: 6 }]]),
};
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;

let t: TestApp;
let m: Merchant;
let owner: DashboardUser;
beforeAll(async () => {
  t = await startTestApp();
  ({ m, owner } = await merchantWithOwner(t.app, 'race@shop.example'));
});
afterAll(() => t.close());

const db = () => t.app.db;

/** A paid 40.00 invoice with a 10.00 refund the payer has claimed: ready to send. */
async function readyRefund() {
  const inv = (await createInvoice(t.app, m, { amount: '40.00' })).json().data;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  await t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${inv.id}/simulate-payment`,
    headers: admin,
    payload: {},
  });
  const made = await t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${inv.id}/refunds`,
    headers: m.auth,
    payload: { amount: '10.00' },
  });
  const refund = made.json().data.refund;
  const claimed = await t.app.inject({
    method: 'POST',
    url: new URL(refund.claim_url).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ method: 'sandbox:USDT', address: ADDRESS }).toString(),
  });
  expect(claimed.statusCode).toBeLessThan(400);
  return { invoiceId: inv.id as string, refundId: refund.id as string };
}

/** The watcher's step: a transfer paying the refund, `final` when already buried, in its own transaction. */
const transfer = {
  token: TOKEN,
  to: ADDRESS,
  value: toTokenUnits(money('10'), 6),
  txHash: '0xpaid',
  blockNumber: 9n,
};
const watcherSees = (tx: Parameters<typeof recordRefundPayments>[0], final = true) =>
  recordRefundPayments(tx, SANDBOX, [transfer], final ? 9n : 8n, new Date());

const cancel = (refundId: string) =>
  owner.post(`/dashboard/refunds/${refundId}/cancel`, { back: '/dashboard/refunds' });

async function outcome(invoiceId: string, refundId: string) {
  const refund = await db()
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', refundId)
    .executeTakeFirstOrThrow();
  const invoice = await db()
    .selectFrom('invoices')
    .select('amount_refunded')
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  const events = await db().selectFrom('events').select('type').where('invoice_id', '=', invoiceId).execute();
  const confirmed = events.filter((e) => e.type === 'refund.confirmed').length;
  return { status: refund.status, refunded: money(invoice.amount_refunded), confirmed };
}

/** Waits until another connection waits for a row lock: the state, never a duration. */
async function someoneWaitsForALock() {
  for (;;) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks where not granted and locktype in ('transactionid', 'tuple')`.execute(
      db(),
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setImmediate(r));
  }
}

/** Runs `work` in a transaction that stays open until the returned `commit` is called. */
function holdOpen(work: (tx: Parameters<typeof watcherSees>[0]) => Promise<unknown>) {
  let commit!: () => void;
  const gate = new Promise<void>((r) => {
    commit = r;
  });
  let held!: () => void;
  const holding = new Promise<void>((r) => {
    held = r;
  });
  const done = db()
    .transaction()
    .execute(async (tx) => {
      await work(tx);
      held();
      await gate;
    });
  return { holding, commit, done };
}

describe('cancel against the watcher confirming, one after the other (both databases)', () => {
  test('confirm, then cancel: the cancel is refused, the refund stays confirmed and counted', async () => {
    const { invoiceId, refundId } = await readyRefund();
    await db()
      .transaction()
      .execute((tx) => watcherSees(tx));
    const res = await cancel(refundId);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('not_cancelable');
    expect(await outcome(invoiceId, refundId)).toEqual({
      status: 'confirmed',
      refunded: money('10'),
      confirmed: 1,
    });
  });

  test('cancel, then the transfer: the refund stays canceled, released once, and nothing is announced', async () => {
    const { invoiceId, refundId } = await readyRefund();
    expect((await cancel(refundId)).statusCode).toBe(303);
    await db()
      .transaction()
      .execute((tx) => watcherSees(tx));
    expect(await outcome(invoiceId, refundId)).toEqual({ status: 'canceled', refunded: 0n, confirmed: 0 });
    // A second cancel releases nothing more.
    expect((await cancel(refundId)).statusCode).toBe(422);
    expect((await outcome(invoiceId, refundId)).refunded).toBe(0n);
  });

  test('a transfer seen but not yet deep enough (sent) can no longer be canceled; it confirms later', async () => {
    const { invoiceId, refundId } = await readyRefund();
    await db()
      .transaction()
      .execute((tx) => watcherSees(tx, false));
    const res = await cancel(refundId);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('not_cancelable');
    expect(await outcome(invoiceId, refundId)).toEqual({
      status: 'sent',
      refunded: money('10'),
      confirmed: 0,
    });
  });
});

describe.runIf(onPostgres)(
  'cancel against the watcher, the row lock held on another connection (PostgreSQL)',
  () => {
    test('the watcher holds the lock: the cancel waits for it, then finds the refund confirmed', async () => {
      const { invoiceId, refundId } = await readyRefund();
      const watcher = holdOpen((tx) => watcherSees(tx));
      await watcher.holding;
      const canceling = cancel(refundId);
      await someoneWaitsForALock();
      watcher.commit();
      await watcher.done;
      const res = await canceling;
      expect(res.statusCode).toBe(422);
      expect(await outcome(invoiceId, refundId)).toEqual({
        status: 'confirmed',
        refunded: money('10'),
        confirmed: 1,
      });
    });

    test('a cancel holds the lock: the watcher waits for it, then finds no ready refund to pay', async () => {
      const { invoiceId, refundId } = await readyRefund();
      const target = { kind: 'one', projectId: m.projectId, refundId } as const;
      const canceler = holdOpen(async (tx) => {
        await lockRefunds(tx, target);
        await changeRefunds(tx, target, each({ kind: 'cancel' }), { now: new Date() });
      });
      await canceler.holding;
      const watching = db()
        .transaction()
        .execute((tx) => watcherSees(tx));
      await someoneWaitsForALock();
      canceler.commit();
      await Promise.all([canceler.done, watching]);
      expect(await outcome(invoiceId, refundId)).toEqual({ status: 'canceled', refunded: 0n, confirmed: 0 });
    });
  },
);
