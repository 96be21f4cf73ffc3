import { type Kysely, type RawBuilder, sql } from 'kysely';
import { boundsOf } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { type GroupCommit, groupCommit, type Settled, writeEachOnFailure } from '../db/group-commit.js';
import type { Database } from '../db/schema.js';
import { executePrepared, type Placeholders, statement } from '../db/statement.js';
import type { OutboxEvent } from '../events/body.js';
import { insertEventsFrom } from '../events/repository.js';
import { liveKey, liveTill } from '../merchants/repository.js';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency.js';
import {
  INVOICE_VIEW_COLUMNS,
  type InvoiceViewRow,
  type PaymentRecord,
  type RefundRecord,
} from './invoice.js';
import type { InvoiceRow } from './invoice.table.js';
import type { InvoiceStatus } from './status.js';

/** A claim older than IDEMPOTENCY_RETENTION_MS may be taken over by a new request (contract §4). */
export interface IdempotencyClaim {
  key: string;
  fingerprint: string;
}

/** Everything the create statement writes: the invoice, its `invoice.created` event, maybe a claim. */
export interface NewInvoice {
  invoice: Omit<
    InvoiceRow,
    | 'status'
    | 'amount_paid'
    | 'amount_refunded'
    | 'amount_after_close'
    | 'paid_late'
    | 'paid_at'
    | 'tx_hash'
    | 'failure_reason'
  >;
  created: OutboxEvent;
  /**
   * The caller's API key: nothing is written unless it is still live (see merchants/authenticate.ts).
   * Null for a sale at a till (src/pos), which has no key: then its project and account must be active
   * and the till itself active, in the same statement.
   */
  keyId: string | null;
  claim?: IdempotencyClaim | undefined;
}

/** An invoice with its payments, as the API shows it (invoice.ts toInvoice). */
export type InvoiceWithPayments = InvoiceRow & { payments: PaymentRecord[]; refunds: RefundRecord[] };

/**
 * What an answer is made of and nothing more: the view's columns (INVOICE_VIEW_COLUMNS), its payments
 * and refunds. A get and a list page read only these: 26 of the row's 45 columns, which the driver
 * parses one by one (issue 37: a third less to parse per invoice read).
 */
export type InvoiceView = InvoiceViewRow & { payments: PaymentRecord[]; refunds: RefundRecord[] };

/** The view's columns of `table` (an alias), for statements written as SQL. */
function viewColumns(table: string) {
  return sql.join(INVOICE_VIEW_COLUMNS.map((c) => sql.ref(`${table}.${c}`)));
}

/**
 * The invoice's payments, in the order seen, as one JSON column of the same statement: one index probe
 * on the payments' primary key, no second round trip.
 */
export function paymentsOf(invoice: RawBuilder<string>) {
  return sql<PaymentRecord[]>`(
    select coalesce(jsonb_agg(jsonb_build_object(
             'network', p.network, 'currency', p.currency, 'tx_hash', p.tx_hash, 'amount', p.amount::text,
             'status', p.status, 'seen_at', p.seen_at) order by p.seen_at, p.tx_hash), '[]'::jsonb)
    from payments p where p.invoice_id = ${invoice})`;
}

/**
 * The invoice's refunds (contract §18), oldest first, as one JSON column of the same statement: one
 * probe of refunds_invoice_idx; the refund object itself is GET …/refunds's.
 */
export function refundsOf(invoice: RawBuilder<string>) {
  return sql<RefundRecord[]>`(
    select coalesce(jsonb_agg(jsonb_build_object(
             'id', r.id, 'amount', r.amount::text, 'status', r.status, 'network', r.network,
             'address', r.address, 'tx_hash', r.tx_hash, 'created_at', r.created_at)
             order by r.created_at, r.id), '[]'::jsonb)
    from refunds r where r.invoice_id = ${invoice})`;
}

/** JSON has no dates: seen_at and created_at come back as text. */
export function withPayments<T extends { payments: PaymentRecord[]; refunds: RefundRecord[] }>(row: T): T {
  for (const p of row.payments) p.seen_at = new Date(p.seen_at);
  for (const r of row.refunds) r.created_at = new Date(r.created_at);
  return row;
}

/**
 * One row of the create statement's input, as the JSON document it reads with json_to_recordset, but
 * for its event's body, which inputOf adds as it is (see there).
 * Times are written as ISO text here: a Date's toJSON takes JSON.stringify off its fast path for the
 * whole document (about 5 µs a row measured).
 */
function inputRow(n: Omit<NewInvoice, 'keyId'> & { keyId: string | null }) {
  const i = n.invoice;
  return {
    id: i.id,
    project_id: i.project_id,
    amount: i.amount,
    currency: i.currency,
    rate: i.rate,
    token_amount: i.token_amount,
    network: i.network,
    payment_methods: i.payment_methods,
    order_id: i.order_id,
    description: i.description,
    metadata: i.metadata,
    redirect_url: i.redirect_url,
    cancel_url: i.cancel_url,
    payment_expires_at: i.payment_expires_at.toISOString(),
    due_at: i.due_at?.toISOString() ?? null,
    open_until: i.open_until?.toISOString() ?? null,
    pay_address: i.pay_address,
    evm_address: i.evm_address,
    evm_address_index: i.evm_address_index,
    tron_address: i.tron_address,
    tron_address_index: i.tron_address_index,
    payout_address: i.payout_address,
    solana_address: i.solana_address ?? null,
    solana_reference: i.solana_reference ?? null,
    underpayment_tolerance_percent: i.underpayment_tolerance_percent,
    dust_percent: i.dust_percent,
    livemode: i.livemode,
    payment_link_id: i.payment_link_id,
    payer_email: i.payer_email,
    payer_language: i.payer_language,
    till_id: i.till_id,
    created_at: i.created_at.toISOString(),
    key_id: n.keyId,
    event_id: n.created.id,
    idempotency_key: n.claim?.key ?? null,
    fingerprint: n.claim?.fingerprint ?? null,
  };
}

/**
 * Creating invoices is one statement, for one invoice or a batch of them (group commit, below): one
 * round trip and one commit, and the outbox is never out of step with the invoices. For each row the
 * caller's API key must still be live; its idempotency key, when it has one, is claimed; then the
 * invoice and its `invoice.created` event are inserted. A row whose key is dead, or whose claim is
 * taken, writes nothing, and the other rows are unaffected. A concurrent claimant of the same key, on
 * any instance, blocks on the key's unique index until the first commits, then finds it taken.
 * The input is one JSON document of rows, so the statement's text never changes with the batch size.
 * It is read as `json`, not `jsonb`: a `json` value keeps its text as written, so each row's event
 * body (already JSON) goes into the document as it is and comes out byte for byte, with no second
 * escaping in Node (issue 37: the body is about half of a row's JSON, and escaping it cost as much as
 * the rest of the row). An earlier try passed the bodies beside the document (one text split by
 * string_to_array): Node saved about 3 µs a row, PostgreSQL spent about 50 µs a row more.
 */
const insertStatement = statement(
  'invoice_insert',
  (p: Placeholders<{ rows: string; retention: string }>) => sql<{ id: string }>`
  with input as (
    select * from json_to_recordset(${p.rows}::json) as t(
      id text, project_id text, amount numeric, currency text, rate jsonb, token_amount numeric,
      network text, payment_methods jsonb,
      order_id text, description text, metadata jsonb, redirect_url text, cancel_url text, payment_expires_at timestamptz,
      due_at timestamptz, open_until timestamptz, pay_address text, evm_address text,
      evm_address_index bigint, tron_address text, tron_address_index bigint, payout_address text,
      solana_address text, solana_reference text,
      underpayment_tolerance_percent numeric, dust_percent numeric, livemode boolean,
      payment_link_id text, payer_email text, payer_language text, till_id text, created_at timestamptz,
      key_id text,
      event_id text, event_body json, idempotency_key text, fingerprint text)
  ),
  live as (
    -- No key: a payer's invoice from a payment link, whose caller checked the project in its own
    -- transaction (links/repository.ts claimUse; only insertLinkInvoice passes none), or a till's
    -- sale, whose till, project and account must be active here.
    select input.* from input
    where ${liveKey(sql.ref('input.key_id'))}
       or (input.key_id is null and input.till_id is null and input.payment_link_id is not null)
       or (input.key_id is null and ${liveTill(sql.ref('input.till_id'), sql.ref('input.project_id'))})
  ),
  claim as (
    insert into idempotency_keys (project_id, key, request_hash, invoice_id, created_at)
    select project_id, idempotency_key, fingerprint, id, created_at from live where idempotency_key is not null
    on conflict (project_id, key) do update
      set request_hash = excluded.request_hash, invoice_id = excluded.invoice_id, created_at = excluded.created_at
      where idempotency_keys.created_at < excluded.created_at - ${p.retention}::interval
    returning invoice_id
  ),
  inv as (
    insert into invoices (id, project_id, status, amount, currency, rate, token_amount, network, payment_methods, order_id,
                          description, metadata, redirect_url, cancel_url, payment_expires_at, due_at, open_until,
                          pay_address, evm_address, evm_address_index, tron_address, tron_address_index,
                          payout_address, solana_address, solana_reference, underpayment_tolerance_percent, dust_percent, livemode,
                          payment_link_id, payer_email, payer_language, till_id, created_at, updated_at)
    select id, project_id, 'pending', amount, currency, rate, token_amount, network, payment_methods, order_id, description,
           metadata, redirect_url, cancel_url, payment_expires_at, due_at, open_until, pay_address, evm_address,
           evm_address_index, tron_address, tron_address_index, payout_address, solana_address, solana_reference,
           underpayment_tolerance_percent, dust_percent, livemode, payment_link_id, payer_email,
           payer_language, till_id, created_at, created_at
    from live
    where idempotency_key is null or id in (select invoice_id from claim)
    returning id
  ),
  event as (${insertEventsFrom(sql`
    select live.event_id, live.project_id, inv.id, 'invoice.created', live.event_body::text, live.created_at
    from inv join live on live.id = inv.id`)}
  )
  select id from inv`,
);

const RETENTION = `${IDEMPOTENCY_RETENTION_MS / 1000} seconds`;
function inputOf(batch: ReadonlyArray<Omit<NewInvoice, 'keyId'> & { keyId: string | null }>) {
  // `{…}` with the body as one more field: the body is JSON text made by JSON.stringify (events/body.ts).
  const rows = batch.map(
    (n) => `${JSON.stringify(inputRow(n)).slice(0, -1)},"event_body":${n.created.body}}`,
  );
  return { rows: `[${rows.join(',')}]`, retention: RETENTION };
}

/**
 * Writes a batch: true for every invoice that was written (the caller has its row: nothing the
 * database would add is read back), false for the others. The same
 * idempotency key twice in one batch would be one row updated twice by one statement, which
 * PostgreSQL refuses: only the first is written, and the others, answered after it committed, find
 * it and replay it as any later request would.
 */
async function insertBatch(
  db: Kysely<Database>,
  batch: readonly NewInvoice[],
): Promise<Array<Settled<boolean>>> {
  const claimed = new Set<string>();
  const first = batch.filter((n) => {
    if (!n.claim) return true;
    const key = `${n.invoice.project_id} ${n.claim.key}`;
    if (claimed.has(key)) return false;
    claimed.add(key);
    return true;
  });
  const rows = await insertStatement(db, inputOf(first));
  const written = new Set(rows.map((r) => r.id));
  return batch.map((n) => ({ ok: true, value: written.has(n.invoice.id) }));
}

const MAX_BATCH = 64;
const writers = new WeakMap<Kysely<Database>, GroupCommit<NewInvoice, boolean>>();

/** The creates of one database handle, group-committed (src/db/group-commit.ts). */
export function createWriter(db: Kysely<Database>): GroupCommit<NewInvoice, boolean> {
  let writer = writers.get(db);
  if (!writer) {
    const write = writeEachOnFailure(
      (batch: readonly NewInvoice[]) => insertBatch(db, batch),
      isDatabaseUnavailable,
    );
    writer = groupCommit(write, { maxBatch: MAX_BATCH, maxInFlight: 2, maxWaitMs: boundsOf(db).statementMs });
    writers.set(db, writer);
  }
  return writer;
}

/** Whether the invoice was written: not when the idempotency key was taken, or the API key is not live. */
export function insertInvoice(db: Kysely<Database>, n: NewInvoice): Promise<boolean> {
  return createWriter(db).submit(n);
}

/**
 * A payer's invoice from a payment link: written by the same statement as every invoice, but alone and
 * in the caller's transaction (not group-committed), after the link's use was claimed in it, so the
 * claim and the invoice commit together or not at all.
 */
export async function insertLinkInvoice(
  tx: Kysely<Database>,
  n: Omit<NewInvoice, 'keyId' | 'claim'>,
): Promise<void> {
  const rows = await insertStatement(tx, inputOf([{ ...n, keyId: null }]));
  if (rows.length !== 1) throw new Error('a payment link invoice was not written');
}

/** The invoice an idempotency key already points at, with the fingerprint of the request that made it. */
export function findClaimedInvoice(db: Kysely<Database>, projectId: string, key: string) {
  return db
    .selectFrom('idempotency_keys as k')
    .innerJoin('invoices as i', 'i.id', 'k.invoice_id')
    .selectAll('i')
    .select('k.request_hash')
    .select(paymentsOf(sql.ref('i.id')).as('payments'))
    .select(refundsOf(sql.ref('i.id')).as('refunds'))
    .where('k.project_id', '=', projectId)
    .where('k.key', '=', key)
    .executeTakeFirst()
    .then((row) => row && withPayments(row));
}

const findStatement = statement(
  'invoice_find',
  (p: Placeholders<{ id: string; projectId: string; keyId: string }>, db) =>
    db
      .selectFrom('invoices')
      .select(INVOICE_VIEW_COLUMNS)
      .select(paymentsOf(sql.ref('invoices.id')).as('payments'))
      .select(refundsOf(sql.ref('invoices.id')).as('refunds'))
      .where('id', '=', p.id)
      .where('project_id', '=', p.projectId)
      .where(liveKey(p.keyId)),
);

interface Lookup {
  id: string;
  projectId: string;
  keyId: string;
}

/**
 * The gets in flight, read together (the reads' group commit): one statement finds every invoice
 * asked for, each only in its own request's project and only while that request's API key is live.
 * Measured against one statement per get, it cut the CPU of a get by about two thirds (bench/README.md).
 */
const findManyStatement = statement(
  'invoice_find_many',
  (p: Placeholders<{ lookups: string }>) => sql<InvoiceView & { n: number }>`
  select ${viewColumns('i')}, ${paymentsOf(sql.ref('i.id'))} as payments, ${refundsOf(sql.ref('i.id'))} as refunds, r.n
  from jsonb_to_recordset(${p.lookups}::jsonb) as r(n int, id text, project_id text, key_id text)
  join invoices i on i.id = r.id and i.project_id = r.project_id
  where ${liveKey(sql.ref('r.key_id'))}`,
);

async function findBatch(db: Kysely<Database>, batch: readonly Lookup[]) {
  if (batch.length === 1) {
    const [l] = batch as [Lookup];
    const [row] = await findStatement(db, l);
    return [{ ok: true as const, value: row && withPayments(row) }];
  }
  const lookups = JSON.stringify(
    batch.map((l, n) => ({ n, id: l.id, project_id: l.projectId, key_id: l.keyId })),
  );
  // Each row keeps its `n` (unread past here): taking it off would copy every row (issue 37).
  const found: Array<InvoiceView | undefined> = new Array(batch.length);
  for (const row of await findManyStatement(db, { lookups })) found[row.n] = withPayments(row);
  return batch.map((_, n) => ({ ok: true as const, value: found[n] }));
}

const readers = new WeakMap<Kysely<Database>, GroupCommit<Lookup, InvoiceView | undefined>>();

/** The gets of one database handle, read in batches. */
export function invoiceReader(db: Kysely<Database>): GroupCommit<Lookup, InvoiceView | undefined> {
  let reader = readers.get(db);
  if (!reader) {
    reader = groupCommit((batch: readonly Lookup[]) => findBatch(db, batch), {
      maxBatch: MAX_BATCH,
      maxInFlight: 4,
      maxWaitMs: boundsOf(db).statementMs,
    });
    readers.set(db, reader);
  }
  return reader;
}

/** Undefined when there is no such invoice in the project, or the API key is no longer live. */
export function findInvoice(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  keyId: string,
): Promise<InvoiceView | undefined> {
  return invoiceReader(db).submit({ id, projectId, keyId });
}

export async function findInvoiceById(
  db: Kysely<Database>,
  id: string,
): Promise<InvoiceWithPayments | undefined> {
  const row = await db
    .selectFrom('invoices')
    .selectAll()
    .select(paymentsOf(sql.ref('invoices.id')).as('payments'))
    .select(refundsOf(sql.ref('invoices.id')).as('refunds'))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && withPayments(row);
}

export interface InvoiceFilter {
  statuses?: InvoiceStatus[] | undefined;
  orderId?: string | undefined;
}

/**
 * A page of a project's invoices, newest first, with the total the filter matches and whether the API
 * key is still live: one statement, one round trip. Without an order id the total comes from the
 * per-status counters the invoices trigger maintains, so it costs the same for a thousand invoices or
 * a million; an order id narrows to a handful of rows, which its index counts directly. An empty page
 * is one row of nulls beside the total.
 */
export async function listInvoices(
  db: Kysely<Database>,
  projectId: string,
  filter: InvoiceFilter,
  page: { limit: number; offset: number },
  keyId: string,
): Promise<{ rows: InvoiceView[]; total: number; live: boolean }> {
  // `= any(array)` rather than `in (…)`, so the text is the same for any number of statuses.
  const statuses = filter.statuses ? sql`and status = any(${filter.statuses}::text[])` : sql``;
  const orderId = filter.orderId === undefined ? sql`` : sql`and order_id = ${filter.orderId}`;
  const count =
    filter.orderId !== undefined
      ? sql`select count(*) from invoices where project_id = ${projectId} ${orderId} ${statuses}`
      : sql`select coalesce(sum(n), 0) from invoice_counts where project_id = ${projectId} ${statuses}`;
  const found = await executePrepared(
    db,
    sql<InvoiceView & { list_total: string; list_live: boolean }>`
      select i.*, t.total as list_total, t.live as list_live
      from (select (${count}) as total, ${liveKey(keyId)} as live) t
      left join lateral (
        select ${viewColumns('invoices')}, ${paymentsOf(sql.ref('invoices.id'))} as payments,
               ${refundsOf(sql.ref('invoices.id'))} as refunds
        from invoices where project_id = ${projectId} ${statuses} ${orderId}
        order by created_at desc, id desc limit ${page.limit} offset ${page.offset}
      ) i on true
      order by i.created_at desc, i.id desc`,
  );
  const [first] = found;
  const rows: InvoiceView[] = [];
  // The rows keep the two list columns (unread past here): taking them off would copy every row.
  for (const row of found) if (row.id !== null) rows.push(withPayments(row));
  return { rows, total: Number(first?.list_total ?? 0), live: first?.list_live ?? false };
}

/** A payment link's invoices, newest first, with their total (contract §25: listed under the link). */
export async function listLinkInvoices(
  db: Kysely<Database>,
  projectId: string,
  linkId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: InvoiceWithPayments[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('invoices')
      .selectAll()
      .select(paymentsOf(sql.ref('invoices.id')).as('payments'))
      .select(refundsOf(sql.ref('invoices.id')).as('refunds'))
      .where('payment_link_id', '=', linkId)
      .where('project_id', '=', projectId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('invoices')
      .select(sql<string>`count(*)`.as('n'))
      .where('payment_link_id', '=', linkId)
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(withPayments), total: Number(count.n) };
}
