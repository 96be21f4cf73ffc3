import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { InvoiceStatus } from './invoice.js';
import type { InvoiceRow, InvoiceTable } from './invoice.table.js';

export function insertInvoice(db: Kysely<Database>, row: InvoiceTable): Promise<InvoiceRow> {
  return db
    .insertInto('invoices')
    .values({ ...row, metadata: JSON.stringify(row.metadata) as never })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
  /** Records older than this may be taken over by a new request. */
  expiredBefore: Date;
}

/**
 * Claims the idempotency key and inserts the invoice in one statement. A concurrent claimant of the
 * same key (on any instance) blocks on the key's unique index until the first commits, then finds
 * the key taken and inserts nothing: exactly one invoice, whatever the race.
 * Returns undefined when the key was already taken.
 */
export async function insertInvoiceClaimingKey(
  db: Kysely<Database>,
  row: InvoiceTable,
  claim: IdempotencyClaim,
): Promise<InvoiceRow | undefined> {
  const result = await sql<InvoiceRow>`
    with claim as (
      insert into idempotency_keys (project_id, key, request_hash, invoice_id, created_at)
      values (${row.project_id}, ${claim.key}, ${claim.fingerprint}, ${row.id}, ${row.created_at})
      on conflict (project_id, key) do update
        set request_hash = excluded.request_hash, invoice_id = excluded.invoice_id, created_at = excluded.created_at
        where idempotency_keys.created_at < ${claim.expiredBefore}
      returning invoice_id
    )
    insert into invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                          payment_expires_at, paid_at, tx_hash, created_at, updated_at)
    select ${row.id}, ${row.project_id}, ${row.status}, ${row.amount}, ${row.currency}, ${row.network},
           ${row.order_id}, ${JSON.stringify(row.metadata)}::jsonb, ${row.payment_expires_at}, null, null,
           ${row.created_at}, ${row.updated_at}
    from claim
    returning *`.execute(db);
  return result.rows[0];
}

/** The invoice an idempotency key already points at, with the fingerprint of the request that made it. */
export function findClaimedInvoice(db: Kysely<Database>, projectId: string, key: string) {
  return db
    .selectFrom('idempotency_keys as k')
    .innerJoin('invoices as i', 'i.id', 'k.invoice_id')
    .selectAll('i')
    .select('k.request_hash')
    .where('k.project_id', '=', projectId)
    .where('k.key', '=', key)
    .executeTakeFirst();
}

export function findInvoice(db: Kysely<Database>, projectId: string, id: string) {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export interface InvoiceFilter {
  statuses?: InvoiceStatus[] | undefined;
  orderId?: string | undefined;
}

export function listInvoices(
  db: Kysely<Database>,
  projectId: string,
  filter: InvoiceFilter,
  page: { limit: number; offset: number },
) {
  let q = db.selectFrom('invoices').selectAll().where('project_id', '=', projectId);
  if (filter.statuses) q = q.where('status', 'in', filter.statuses);
  if (filter.orderId !== undefined) q = q.where('order_id', '=', filter.orderId);
  return q
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * Without an order id the total comes from the per-status counters the invoices trigger maintains, so
 * it costs the same for a thousand invoices or a million. An order id narrows to a handful of rows,
 * which its index counts directly.
 */
export async function countInvoices(
  db: Kysely<Database>,
  projectId: string,
  filter: InvoiceFilter,
): Promise<number> {
  if (filter.orderId !== undefined) {
    let q = db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('project_id', '=', projectId)
      .where('order_id', '=', filter.orderId);
    if (filter.statuses) q = q.where('status', 'in', filter.statuses);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }
  let q = db
    .selectFrom('invoice_counts')
    .select(sql<string>`coalesce(sum(n), 0)`.as('n'))
    .where('project_id', '=', projectId);
  if (filter.statuses) q = q.where('status', 'in', filter.statuses);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
