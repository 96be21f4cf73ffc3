import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { fanOut, type OutboxEvent } from '../webhooks/outbox.js';
import type { InvoiceStatus } from './invoice.js';
import type { InvoiceRow, NewInvoiceRow } from './invoice.table.js';

export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
  /** Records older than this may be taken over by a new request. */
  expiredBefore: Date;
}

/**
 * Inserts a new invoice and its `invoice.created` event (with a delivery per subscribed endpoint) in
 * one statement, so the outbox is never out of step with the invoices and a create costs one round
 * trip. With an idempotency claim, the key is taken in the same statement: a concurrent claimant of
 * the same key (on any instance) blocks on the key's unique index until the first commits, then finds
 * it taken and inserts nothing, so exactly one invoice exists whatever the race.
 * Returns undefined when the key was already taken.
 */
export async function insertInvoice(
  db: Kysely<Database>,
  row: NewInvoiceRow,
  created: OutboxEvent,
  claim?: IdempotencyClaim,
): Promise<InvoiceRow | undefined> {
  const claimCte = claim
    ? sql`claim as (
        insert into idempotency_keys (project_id, key, request_hash, invoice_id, created_at)
        values (${row.project_id}, ${claim.key}, ${claim.fingerprint}, ${row.id}, ${row.created_at})
        on conflict (project_id, key) do update
          set request_hash = excluded.request_hash, invoice_id = excluded.invoice_id, created_at = excluded.created_at
          where idempotency_keys.created_at < ${claim.expiredBefore}
        returning invoice_id
      ),`
    : sql``;
  const result = await sql<InvoiceRow>`
    with ${claimCte}
    inv as (
      insert into invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                            payment_expires_at, pay_address, created_at, updated_at)
      select ${row.id}, ${row.project_id}, 'pending', ${row.amount}, ${row.currency}, ${row.network},
             ${row.order_id}, ${JSON.stringify(row.metadata)}::jsonb, ${row.payment_expires_at}, ${row.pay_address},
             ${row.created_at}, ${row.updated_at}
      ${claim ? sql`from claim` : sql``}
      returning *
    ),
    ev as (
      insert into events (id, project_id, invoice_id, type, body, created_at)
      select ${created.id}, inv.project_id, inv.id, ${created.type}, ${created.body}, ${created.createdAt} from inv
      returning id, type, project_id
    ),
    deliveries as (${fanOut(sql`ev`, row.created_at)})
    select * from inv`.execute(db);
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
