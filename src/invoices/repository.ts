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
  const values = [
    row.id,
    row.project_id,
    row.amount,
    row.currency,
    row.network,
    row.order_id,
    JSON.stringify(row.metadata),
    row.payment_expires_at,
    row.pay_address,
    row.created_at,
    keyId,
    created.id,
    created.type,
    created.body,
    row.address_index,
  ];
  const rows = claim
    ? await insertClaimingKey(db, [...values, claim.key, claim.fingerprint, claim.expiredBefore])
    : await insertUnkeyed(db, values);
  return rows[0];
}

// The statement is compiled once (two shapes: with and without an idempotency claim) and runs as a
// prepared statement: $1 id, $2 project, $3 amount, $4 currency, $5 network, $6 order id, $7 metadata,
// $8 expiry, $9 pay address, $10 now, $11 API key id, $12 event id, $13 event type, $14 event body,
// $15 address index; with a claim, $16 idempotency key, $17 request fingerprint, $18 reclaimable-before.
const v = (n: number, type: string) => sql.raw(`$${n}::${type}`);

function insertStatement(withClaim: boolean) {
  const claimCte = withClaim
    ? sql`claim as (
        insert into idempotency_keys (project_id, key, request_hash, invoice_id, created_at)
        select ${v(2, 'text')}, ${v(16, 'text')}, ${v(17, 'text')}, ${v(1, 'text')}, ${v(10, 'timestamptz')}
        where ${liveKey(param(11))}
        on conflict (project_id, key) do update
          set request_hash = excluded.request_hash, invoice_id = excluded.invoice_id, created_at = excluded.created_at
          where idempotency_keys.created_at < ${v(18, 'timestamptz')}
        returning invoice_id
      ),`
    : sql``;
  return sql<InvoiceRow>`
    with ${claimCte}
    inv as (
      insert into invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                            payment_expires_at, pay_address, address_index, created_at, updated_at)
      select ${v(1, 'text')}, ${v(2, 'text')}, 'pending', ${v(3, 'numeric')}, ${v(4, 'text')}, ${v(5, 'text')},
             ${v(6, 'text')}, ${v(7, 'jsonb')}, ${v(8, 'timestamptz')}, ${v(9, 'text')}, ${v(15, 'bigint')},
             ${v(10, 'timestamptz')}, ${v(10, 'timestamptz')}
      ${withClaim ? sql`from claim` : sql`where ${liveKey(param(11))}`}
      returning *
    ),
    ev as (
      insert into events (id, project_id, invoice_id, type, body, created_at)
      select ${v(12, 'text')}, inv.project_id, inv.id, ${v(13, 'text')}, ${v(14, 'text')}, ${v(10, 'timestamptz')}
      from inv
      where ${subscribed(sql`inv.project_id`, v(13, 'text'))}
      returning id, type, project_id
    ),
    deliveries as (${fanOut(sql`ev`, v(10, 'timestamptz'))})
    select * from inv`;
}

const insertUnkeyed = compileOnce(() => insertStatement(false));
const insertClaimingKey = compileOnce(() => insertStatement(true));

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
