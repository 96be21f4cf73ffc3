import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { liveKey } from '../merchants/repository.js';
import type { RefundTable } from './refund.table.js';

type Tx = Transaction<Database>;

// A new refund, and its invoice: the money side, locked by whoever creates or cancels a refund, with
// the total its refunds hold back. A refund's row changes only in lock.repository.ts saveRefund.

/**
 * The invoice a refund is made against, locked for the transaction: two refunds of one invoice, on
 * any instance, take turns, so each sees what the other refunded (the sum never exceeds what was
 * paid). `keyId`, for the merchant API: nothing is found unless the key is still live.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: it still makes refund changes of one invoice take turns (and
 * wait for the invoice watcher's FOR UPDATE), but leaves free the FOR KEY SHARE that inserting a row
 * naming the invoice takes (an event's foreign key). A refund watcher holding a refund's lock writes
 * its `refund.confirmed` without waiting for a cancel that holds the invoice and waits for that
 * refund: with FOR UPDATE the two deadlocked (found by cancel-race.test.ts on two instances).
 */
export function lockInvoice(tx: Tx, projectId: string, invoiceId: string, keyId?: string) {
  let q = tx
    .selectFrom('invoices')
    .innerJoin('projects', 'projects.id', 'invoices.project_id')
    .select([
      'invoices.id',
      'invoices.project_id',
      'projects.account_id',
      'invoices.status',
      'invoices.amount',
      'invoices.currency',
      'invoices.livemode',
      'invoices.rate',
      'invoices.amount_paid',
      'invoices.amount_after_close',
      'invoices.amount_refunded',
    ])
    .where('invoices.id', '=', invoiceId)
    .where('invoices.project_id', '=', projectId);
  if (keyId !== undefined) q = q.where(liveKey(keyId));
  return q.forNoKeyUpdate('invoices').executeTakeFirst();
}

export type LockedInvoice = NonNullable<Awaited<ReturnType<typeof lockInvoice>>>;

/** Adds `delta` (negative when a refund is canceled) to the invoice's refunded total. */
export async function addRefunded(tx: Tx, invoiceId: string, delta: string, now: Date) {
  await sql`update invoices set amount_refunded = amount_refunded + ${delta}::numeric, updated_at = ${now}
            where id = ${invoiceId}`.execute(tx);
}

export function insertRefund(tx: Tx, row: RefundTable) {
  return tx.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function invoiceOfRefund(tx: Tx, projectId: string, id: string) {
  const row = await tx
    .selectFrom('refunds')
    .select('invoice_id')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.invoice_id;
}
