import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InvoiceRow } from './invoice.table.js';
import { LATE_PAYMENT_WINDOW_MS } from './lifecycle.js';
import type { PaymentRow } from './payment.table.js';

type Tx = Transaction<Database>;

/** Locks the rows in id order (the caller sorts), so that overlapping batches cannot deadlock. */
export function lockInvoices(tx: Tx, ids: string[]) {
  return tx.selectFrom('invoices').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

export function paymentsOf(tx: Tx, invoiceIds: string[]) {
  return tx.selectFrom('payments').selectAll().where('invoice_id', 'in', invoiceIds).execute();
}

/**
 * Open invoices past their deadline, oldest first, locked for this transaction; rows another
 * instance holds are skipped, not waited for. An invoice held open by a payment awaiting confirmation
 * is left alone until the 24 h late window is over.
 */
export function claimOverdue(tx: Tx, now: Date, limit: number) {
  const holdUntil = new Date(now.getTime() - LATE_PAYMENT_WINDOW_MS);
  return tx
    .selectFrom('invoices')
    .selectAll()
    .where('status', '=', 'pending')
    .where('payment_expires_at', '<', now)
    .where((eb) => eb.or([eb('awaiting_confirmation', '=', false), eb('payment_expires_at', '<', holdUntil)]))
    .orderBy('payment_expires_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/**
 * Upserts payments in one statement. A payment observed again keeps its row; one a reorganisation
 * reversed and that is mined again takes its new amount, times and status.
 */
export async function savePayments(tx: Tx, rows: PaymentRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insertInto('payments')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['invoice_id', 'tx_hash']).doUpdateSet((eb) => ({
        amount: eb.ref('excluded.amount'),
        status: eb.ref('excluded.status'),
        seen_at: eb.ref('excluded.seen_at'),
        confirmed_at: eb.ref('excluded.confirmed_at'),
        reversed_at: eb.ref('excluded.reversed_at'),
      })),
    )
    .execute();
}

/**
 * The only statement in the code base that writes an invoice's status. One statement per transaction,
 * whatever the number of invoices, so the counters trigger locks its rows in one sorted pass (see
 * migrations/0001): transactions that change statuses can never deadlock each other.
 */
export async function saveInvoices(tx: Tx, rows: InvoiceRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof InvoiceRow>(k: K) => rows.map((r) => r[k]);
  await sql`
    update invoices set
      status = v.status,
      paid_at = v.paid_at,
      tx_hash = v.tx_hash,
      paid_late = v.paid_late,
      failure_reason = v.failure_reason,
      amount_paid = v.amount_paid,
      awaiting_confirmation = v.awaiting_confirmation,
      updated_at = v.updated_at
    from unnest(${col('id')}::text[], ${col('status')}::text[], ${col('paid_at')}::timestamptz[],
                ${col('tx_hash')}::text[], ${col('paid_late')}::boolean[], ${col('failure_reason')}::text[],
                ${col('amount_paid')}::numeric[], ${col('awaiting_confirmation')}::boolean[],
                ${col('updated_at')}::timestamptz[])
      as v(id, status, paid_at, tx_hash, paid_late, failure_reason, amount_paid, awaiting_confirmation, updated_at)
    where invoices.id = v.id`.execute(tx);
}
