import { type Kysely, sql } from 'kysely';
import { compileOnce, param } from '../db/compiled.js';
import { PREPARED } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import { liveKey } from '../merchants/repository.js';
import { fanOut, type OutboxEvent, subscribed } from '../webhooks/outbox.js';
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
 * Nothing is written unless the caller's key is still live (`liveKey`). Returns undefined when the
 * key was already taken or the API key is no longer live.
 */
export async function insertInvoice(
  db: Kysely<Database>,
  row: NewInvoiceRow,
  created: OutboxEvent,
  keyId: string,
  claim?: IdempotencyClaim,
): Promise<InvoiceRow | undefined> {
  const claimCte = claim
    ? sql`claim as (
        insert into idempotency_keys (project_id, key, request_hash, invoice_id, created_at)
        select ${row.project_id}, ${claim.key}, ${claim.fingerprint}, ${row.id}, ${row.created_at}
        where ${liveKey(keyId)}
        on conflict (project_id, key) do update
          set request_hash = excluded.request_hash, invoice_id = excluded.invoice_id, created_at = excluded.created_at
          where idempotency_keys.created_at < ${claim.expiredBefore}
        returning invoice_id
      ),`
    : sql``;
  const result = await sql<InvoiceRow>`${PREPARED}
    with ${claimCte}
    inv as (
      insert into invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                            payment_expires_at, pay_address, created_at, updated_at)
      select ${row.id}, ${row.project_id}, 'pending', ${row.amount}, ${row.currency}, ${row.network},
             ${row.order_id}, ${JSON.stringify(row.metadata)}::jsonb, ${row.payment_expires_at}, ${row.pay_address},
             ${row.created_at}, ${row.updated_at}
      ${claim ? sql`from claim` : sql`where ${liveKey(keyId)}`}
      returning *
    ),
    ev as (
      insert into events (id, project_id, invoice_id, type, body, created_at)
      select ${created.id}, inv.project_id, inv.id, ${created.type}, ${created.body}, ${created.createdAt} from inv
      where ${subscribed(sql`inv.project_id`, sql`${created.type}`)}
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

const findInvoiceQuery = compileOnce((db) =>
  db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', param(1))
    .where('project_id', '=', param(2))
    .where(liveKey(param(3))),
);

/** Undefined when there is no such invoice in the project, or the API key is no longer live. */
export async function findInvoice(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  keyId: string,
): Promise<InvoiceRow | undefined> {
  return (await findInvoiceQuery(db, [id, projectId, keyId]))[0];
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
  // `= any(array)` rather than `in (…)`, so the text is the same for any number of statuses.
  if (filter.statuses) q = q.where('status', '=', sql<InvoiceStatus>`any(${filter.statuses}::text[])`);
  if (filter.orderId !== undefined) q = q.where('order_id', '=', filter.orderId);
  return q
    .modifyFront(PREPARED)
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
  keyId: string,
): Promise<{ total: number; live: boolean }> {
  const statuses = filter.statuses ? sql`and status = any(${filter.statuses}::text[])` : sql``;
  const count =
    filter.orderId !== undefined
      ? sql`select count(*) from invoices
            where project_id = ${projectId} and order_id = ${filter.orderId} ${statuses}`
      : sql`select coalesce(sum(n), 0) from invoice_counts where project_id = ${projectId} ${statuses}`;
  // The page's query runs alongside; this one also says whether the API key is still live.
  const result = await sql<{ total: string; live: boolean }>`${PREPARED}
    select (${count}) as total, ${liveKey(keyId)} as live`.execute(db);
  const row = result.rows[0] as { total: string; live: boolean };
  return { total: Number(row.total), live: row.live };
}
