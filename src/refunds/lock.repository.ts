import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RefundTable } from './refund.table.js';
import { invoiceOfRefund, lockInvoice } from './repository.js';

type Tx = Transaction<Database>;

// The statements of the one writer of refunds (change.ts): lock and re-read, then save. The only
// UPDATE of a refund is saveRefund; its only INSERT is repository.ts insertRefund.

/** Which refunds a change is about: each kind is one probe of an index, whatever the table's size. */
export type RefundTarget =
  /** One refund of a project (of one invoice when `invoiceId` is given). */
  | { kind: 'one'; projectId: string; refundId: string; invoiceId?: string }
  /** The refund a claim link opens. */
  | { kind: 'claim'; tokenHash: string }
  /** Ready refunds on `network` to one of `addresses` (a watcher's transfers). */
  | { kind: 'ready_to'; network: string; addresses: string[] }
  /** Sent refunds on `network` whose transfer's block is at or below `block`: now final. */
  | { kind: 'sent_up_to'; network: string; block: bigint }
  /** Sent refunds on `network` whose transfer's block is above `block` (a reorganisation dropped it). */
  | { kind: 'sent_above'; network: string; block: bigint };

/**
 * The target's refunds, locked for the transaction, in id order (two transactions locking overlapping
 * sets take them in the same order, so they never deadlock), with what their changes need of their
 * invoice and project. Read under the lock: what a caller read before is never trusted.
 */
export function lockRefunds(tx: Tx, target: RefundTarget) {
  let q = tx
    .selectFrom('refunds')
    .innerJoin('invoices', 'invoices.id', 'refunds.invoice_id')
    .innerJoin('projects', 'projects.id', 'refunds.project_id')
    .selectAll('refunds')
    .select(['invoices.rate', 'invoices.payment_methods', 'projects.account_id']);
  switch (target.kind) {
    case 'one':
      q = q.where('refunds.id', '=', target.refundId).where('refunds.project_id', '=', target.projectId);
      if (target.invoiceId !== undefined) q = q.where('refunds.invoice_id', '=', target.invoiceId);
      break;
    case 'claim':
      q = q.where('refunds.claim_token_hash', '=', target.tokenHash);
      break;
    case 'ready_to':
      q = q
        .where('refunds.network', '=', target.network)
        .where('refunds.status', '=', 'ready')
        .where('refunds.address', '=', (eb) => eb.fn.any(eb.val(target.addresses)));
      break;
    case 'sent_up_to':
    case 'sent_above':
      q = q
        .where('refunds.network', '=', target.network)
        .where('refunds.status', '=', 'sent')
        .where('refunds.block_number', target.kind === 'sent_up_to' ? '<=' : '>', target.block.toString());
      break;
  }
  return q.orderBy('refunds.id').forUpdate('refunds').execute();
}

export type LockedRefund = Awaited<ReturnType<typeof lockRefunds>>[number];

/** The invoice of a refund, locked first wherever money moves: the order every writer of both takes. */
export async function lockInvoiceOfRefund(tx: Tx, projectId: string, refundId: string) {
  const invoiceId = await invoiceOfRefund(tx, projectId, refundId);
  return invoiceId === undefined ? undefined : lockInvoice(tx, projectId, invoiceId);
}

/** The only statement that changes a refund after its insert (change.ts, after the lifecycle decided). */
export function saveRefund(tx: Tx, id: string, patch: Partial<RefundTable>) {
  return tx.updateTable('refunds').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
