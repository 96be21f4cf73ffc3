import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The invoices as people browse them (the dashboard's list, detail and CSV export): keyset pages and
 * one invoice with its payments and events. The merchant API's reads are in repository.ts.
 */
import type { InvoiceStatus } from './status.js';

export interface InvoiceQuery {
  projectId: string;
  status?: InvoiceStatus | undefined;
  /** An invoice id or an order id, matched exactly (both indexed). */
  search?: string | undefined;
}

export interface Cursor {
  createdAt: Date;
  id: string;
}

const COLUMNS = [
  'id',
  'order_id',
  'status',
  'amount',
  'amount_paid',
  'amount_refunded',
  'currency',
  'rate',
  'network',
  'pay_address',
  'tx_hash',
  'paid_late',
  'failure_reason',
  'payment_expires_at',
  'paid_at',
  'created_at',
] as const;

/**
 * One page, newest first, by keyset: `(created_at, id)` below the cursor (or above it, reversed, for
 * the page before). Each step reads only its own rows through invoices_project_created_idx or
 * invoices_project_status_created_idx, so page 5,000 costs what page 1 does; OFFSET would not.
 */
export function pageOfInvoices(
  db: Kysely<Database>,
  q: InvoiceQuery,
  page: { after?: Cursor | undefined; before?: Cursor | undefined; limit: number },
) {
  let query = db.selectFrom('invoices').select(COLUMNS).where('project_id', '=', q.projectId);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.search) {
    const s = q.search;
    query = query.where((eb) => eb.or([eb('id', '=', s), eb('order_id', '=', s)]));
  }
  if (page.after) {
    query = query.where(sql<boolean>`(created_at, id) < (${page.after.createdAt}, ${page.after.id})`);
  }
  if (page.before) {
    query = query.where(sql<boolean>`(created_at, id) > (${page.before.createdAt}, ${page.before.id})`);
    return query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.limit).execute();
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
}

export type InvoiceListRow = Awaited<ReturnType<typeof pageOfInvoices>>[number];

export function findProjectInvoice(db: Kysely<Database>, projectId: string, id: string) {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export function invoicePayments(db: Kysely<Database>, invoiceId: string) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .orderBy('seen_at')
    .orderBy('tx_hash')
    .execute();
}

/**
 * An invoice's events in the order they were written: the events of one change share its time
 * (invoice.payment_detected, then invoice.paid), so their sequence (migration 0009) orders them.
 */
export function invoiceEvents(db: Kysely<Database>, invoiceId: string) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'created_at'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('created_at')
    .orderBy(sql`seq`)
    .execute();
}

/** The event, only when it belongs to this invoice of this project. */
export function findInvoiceEvent(
  db: Kysely<Database>,
  projectId: string,
  invoiceId: string,
  eventId: string,
) {
  return db
    .selectFrom('events')
    .select(['id', 'type'])
    .where('id', '=', eventId)
    .where('invoice_id', '=', invoiceId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}
