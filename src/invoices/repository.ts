import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { executePrepared, type Placeholders, statement } from '../db/statement.js';
import { liveKey } from '../merchants/repository.js';
import type { InvoiceEvent } from './events.js';
import type { InvoiceRow } from './invoice.table.js';
import type { InvoiceStatus } from './status.js';

export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
  /** A claim made before this may be taken over by a new request (contract §4: kept at least 24 h). */
  reclaimableBefore: Date;
}

/** Everything the create statement writes: the invoice, its `invoice.created` event, maybe a claim. */
export interface NewInvoice {
  invoice: Omit<
    InvoiceRow,
    'status' | 'amount_paid' | 'paid_late' | 'paid_at' | 'tx_hash' | 'failure_reason'
  >;
  created: InvoiceEvent;
  /** The caller's API key: nothing is written unless it is still live (see merchants/authenticate.ts). */
  keyId: string;
  claim?: IdempotencyClaim | undefined;
}

type InsertValues = {
  id: string;
  projectId: string;
  amount: string;
  currency: string;
  network: string;
  orderId: string | null;
  metadata: string;
  expiresAt: Date;
  dueAt: Date | null;
  openUntil: Date | null;
  payAddress: string;
  addressIndex: string | null;
  now: Date;
  keyId: string;
  eventId: string;
  eventBody: string;
  idempotencyKey: string | null;
  fingerprint: string | null;
  reclaimableBefore: Date | null;
};

/**
 * Creating an invoice is one statement, so a create costs one round trip and the outbox is never out
 * of step with the invoices: the API key's liveness is read, the idempotency key claimed (when one is
 * given), then the invoice and its event inserted. A concurrent claimant of the same key, on any
 * instance, blocks on the key's unique index until the first commits, then finds it taken and inserts
 * nothing, so exactly one invoice exists whatever the race.
 */
const insertStatement = statement(
  'invoice_insert',
  (p: Placeholders<InsertValues>) => sql<InvoiceRow>`
  with live as (
    select ${liveKey(p.keyId)} as ok
  ),
  claim as (
    insert into idempotency_keys (project_id, key, request_hash, invoice_id, created_at)
    select ${p.projectId}::text, ${p.idempotencyKey}::text, ${p.fingerprint}::text, ${p.id}::text,
           ${p.now}::timestamptz
    from live where live.ok and ${p.idempotencyKey}::text is not null
    on conflict (project_id, key) do update
      set request_hash = excluded.request_hash, invoice_id = excluded.invoice_id, created_at = excluded.created_at
      where idempotency_keys.created_at < ${p.reclaimableBefore}::timestamptz
    returning invoice_id
  ),
  inv as (
    insert into invoices (id, project_id, status, amount, currency, network, order_id, metadata,
                          payment_expires_at, due_at, open_until, pay_address, address_index,
                          created_at, updated_at)
    select ${p.id}::text, ${p.projectId}::text, 'pending', ${p.amount}::numeric, ${p.currency}::text,
           ${p.network}::text, ${p.orderId}::text, ${p.metadata}::jsonb, ${p.expiresAt}::timestamptz,
           ${p.dueAt}::timestamptz, ${p.openUntil}::timestamptz, ${p.payAddress}::text,
           ${p.addressIndex}::bigint, ${p.now}::timestamptz, ${p.now}::timestamptz
    from live
    where live.ok and (${p.idempotencyKey}::text is null or exists (select 1 from claim))
    returning *
  ),
  event as (
    insert into events (id, project_id, invoice_id, type, body, created_at)
    select ${p.eventId}::text, inv.project_id, inv.id, 'invoice.created', ${p.eventBody}::text,
           ${p.now}::timestamptz
    from inv
  )
  select * from inv`,
);

/** The new invoice, or undefined when nothing was written: the key was taken, or the API key is not live. */
export async function insertInvoice(db: Kysely<Database>, n: NewInvoice): Promise<InvoiceRow | undefined> {
  const rows = await insertStatement(db, {
    id: n.invoice.id,
    projectId: n.invoice.project_id,
    amount: n.invoice.amount,
    currency: n.invoice.currency,
    network: n.invoice.network,
    orderId: n.invoice.order_id,
    metadata: JSON.stringify(n.invoice.metadata),
    expiresAt: n.invoice.payment_expires_at,
    dueAt: n.invoice.due_at,
    openUntil: n.invoice.open_until,
    payAddress: n.invoice.pay_address,
    addressIndex: n.invoice.address_index,
    now: n.invoice.created_at,
    keyId: n.keyId,
    eventId: n.created.id,
    eventBody: n.created.body,
    idempotencyKey: n.claim?.key ?? null,
    fingerprint: n.claim?.fingerprint ?? null,
    reclaimableBefore: n.claim?.reclaimableBefore ?? null,
  });
  return rows[0];
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

const findStatement = statement(
  'invoice_find',
  (p: Placeholders<{ id: string; projectId: string; keyId: string }>, db) =>
    db
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', p.id)
      .where('project_id', '=', p.projectId)
      .where(liveKey(p.keyId)),
);

/** Undefined when there is no such invoice in the project, or the API key is no longer live. */
export async function findInvoice(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  keyId: string,
): Promise<InvoiceRow | undefined> {
  return (await findStatement(db, { id, projectId, keyId }))[0];
}

export function findInvoiceById(db: Kysely<Database>, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
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
  return executePrepared(
    db,
    q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset),
  );
}

/**
 * Without an order id the total comes from the per-status counters the invoices trigger maintains, so
 * it costs the same for a thousand invoices or a million. An order id narrows to a handful of rows,
 * which its index counts directly. The same statement says whether the API key is still live.
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
  const [row] = (await executePrepared(
    db,
    sql<{ total: string; live: boolean }>`select (${count}) as total, ${liveKey(keyId)} as live`,
  )) as [{ total: string; live: boolean }];
  return { total: Number(row.total), live: row.live };
}
