import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import {
  type Change,
  InvoiceModel,
  observationOf,
  type Step,
  steps,
  T0,
  TTL_MS,
} from '../../test/lifecycle-model.js';
import { formatMoney, type Money, money } from '../money/money.js';
import { expireDue, observeOne } from './observe.js';

// The model-based sequences of lifecycle.model.test.ts, through the single writer and the database:
// each step is one observe() transaction (a tick is the expiry job's expireDue()), and after each the
// stored invoice and the events written beside it must be what the reference model says.

const clock = manualClock(new Date(T0));
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ clock });
  // A tolerance of 2.5 %: 9.75 of 10.00 pays (contract §15).
  m = await createMerchant(t.app, {
    invoice_ttl_seconds: TTL_MS / 1000,
    underpayment_tolerance_percent: 2.5,
  });
});
afterAll(() => t?.close());

const ctx = () => ({ now: clock(), publicBaseUrl: 'http://paydesk.test' });

async function apply(invoiceId: string, step: Step): Promise<void> {
  if (step.kind === 'clock') clock.set(new Date(step.to));
  else if (step.kind === 'tick') await expireDue(t.database.db, ctx(), 500);
  else await observeOne(t.database.db, invoiceId, observationOf(step)!, ctx());
}

/** The events of the invoice not yet seen, as status changes and a count of detections. */
async function newEvents(invoiceId: string, seen: Set<string>) {
  const rows = await t.database.db
    .selectFrom('events')
    .select(['id', 'type', 'body'])
    .where('invoice_id', '=', invoiceId)
    .execute();
  const changes: Change[] = [];
  let detected = 0;
  let unaccepted = 0;
  let afterClose = 0;
  for (const row of rows.filter((r) => !seen.has(r.id))) {
    seen.add(row.id);
    const data = JSON.parse(row.body).data;
    if (row.type === 'invoice.payment_detected') detected++;
    else if (row.type === 'invoice.payment_unaccepted') unaccepted++;
    else if (row.type === 'invoice.payment_after_close') afterClose++;
    else if (row.type !== 'invoice.created')
      changes.push({ from: data.previous_status, to: data.invoice.status });
  }
  // One transaction's events share a timestamp: compare them by the status they left, never twice the same.
  return {
    changes: changes.sort((a, b) => a.from.localeCompare(b.from)),
    detected,
    unaccepted,
    afterClose,
  };
}

test('observe() stores what the reference model says, with exactly one event per status change', async () => {
  await fc.assert(
    fc.asyncProperty(steps, async (sequence) => {
      clock.set(new Date(T0));
      const invoice = (await createInvoice(t.app, m)).json().data;
      // The tolerance above, and the default PAYDESK_DUST_PERCENT (1 %) the invoice was made with.
      const model = new InvoiceModel(250, 100);
      const seen = new Set<string>();
      for (const step of sequence) {
        const before = model.status;
        await apply(invoice.id, step);
        model.step(step, clock().getTime());
        const row = await t.database.db
          .selectFrom('invoices')
          .selectAll()
          .where('id', '=', invoice.id)
          .executeTakeFirstOrThrow();
        if (before === 'paid' || before === 'failed') expect(row.status).toBe(before);
        expect(row).toMatchObject({
          status: model.status,
          failure_reason: model.failureReason,
          paid_late: model.paidLate,
        });
        expect(money(row.amount_paid)).toBe(model.confirmedSum());
        expect(money(row.amount_after_close)).toBe(model.afterCloseSum());
        const payments = await t.database.db
          .selectFrom('payments')
          .select(['tx_hash', 'currency', 'status'])
          .where('invoice_id', '=', invoice.id)
          .execute();
        expect(new Map(payments.map((p) => [`${p.tx_hash} ${p.currency}`, p.status]))).toEqual(
          model.statuses(),
        );
        if (!model.terminal()) expect(row.tx_hash).toBe(model.latestStanding());
        const events = await newEvents(invoice.id, seen);
        expect(events.changes).toEqual([...model.changes].sort((a, b) => a.from.localeCompare(b.from)));
        expect(events.detected).toBe(model.detected);
        expect(events.unaccepted).toBe(model.unaccepted);
        expect(events.afterClose).toBe(model.afterClose);
      }
      // What the API shows as paid is the same sum.
      const shown = await t.app.inject({ url: `/v1/merchant/invoices/${invoice.id}`, headers: m.auth });
      expect(shown.json().data.amount_paid).toBe(formatMoney(model.confirmedSum() as Money));
    }),
    { numRuns: 30 },
  );
}, 120_000);
