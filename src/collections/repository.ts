import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { insertEvents } from '../events/repository.js';
import type { CollectionRow, CollectorTable } from './collection.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A payment whose funds are a deposit to collect: a confirmed one, or money after close once final
 * (contract §21); the partial index payments_collectable_idx is on the same condition.
 */
const deposited = sql.raw(`p.status in ('confirmed', 'after_close') and p.confirmed_at is not null`);

/** One deposit to collect: a forwarder (by its invoice) and a token it holds. */
export interface Deposit {
  invoiceId: string;
  projectId: string;
  token: string;
  /** The sum of its confirmed payments not yet collected, numeric as a decimal string. */
  amount: string;
  /** True when a confirmed collection already deployed this forwarder (the factory's `fresh` hint). */
  deployed: boolean;
}

/** A project's confirmed, uncollected deposits on a network, per token: what "Collect now" would move. */
export async function collectableTotals(db: Db, projectId: string, network: string) {
  const { rows } = await sql<{ token: string; amount: string; deposits: string; oldest: Date }>`
    select p.currency as token, sum(p.amount)::text as amount, count(distinct p.invoice_id)::text as deposits,
           min(p.confirmed_at) as oldest
    from payments p join invoices i on i.id = p.invoice_id
    where i.project_id = ${projectId} and p.network = ${network} and ${deposited}
      and p.collection_id is null and i.payout_address is not null
    group by p.currency order by p.currency`.execute(db);
  return rows;
}

/**
 * Projects with collectable deposits on a network, with their total (tokens at par, in USD) and oldest,
 * leaving out deposits whose sweep failed after `failedBefore` (automatic collections retry those later).
 */
export async function collectableProjects(db: Db, network: string, failedBefore: Date) {
  const { rows } = await sql<{ project_id: string; total: string; oldest: Date }>`
    select i.project_id, sum(p.amount)::text as total, min(p.confirmed_at) as oldest
    from payments p join invoices i on i.id = p.invoice_id
    where p.network = ${network} and ${deposited} and p.collection_id is null
      and i.payout_address is not null
      and (p.sweep_failed_at is null or p.sweep_failed_at < ${failedBefore})
    group by i.project_id`.execute(db);
  return rows;
}

/**
 * Takes up to `limit` deposits of a project on a network into a new collection, in one transaction:
 * the oldest first, all bound to one payout (an invoice keeps the payout its forwarder was made for).
 * A payment is taken only while it belongs to no collection, re-checked under its row lock, so two
 * instances asking at once never put one deposit in two collections. Undefined when nothing was left.
 */
export async function takeDeposits(
  tx: Transaction<Database>,
  c: {
    id: string;
    projectId: string;
    network: string;
    livemode: boolean;
    now: Date;
    limit: number;
    /** Leave out deposits whose sweep failed after this (automatic collections); all by default. */
    failedBefore?: Date | undefined;
  },
): Promise<CollectionRow | undefined> {
  const failedBefore = c.failedBefore ?? new Date(8.64e15);
  const oldest = await sql<{ payout_address: string }>`
    select i.payout_address from payments p join invoices i on i.id = p.invoice_id
    where i.project_id = ${c.projectId} and p.network = ${c.network} and ${deposited}
      and p.collection_id is null and i.payout_address is not null
      and (p.sweep_failed_at is null or p.sweep_failed_at < ${failedBefore})
    order by p.confirmed_at, p.invoice_id limit 1`.execute(tx);
  const payout = oldest.rows[0]?.payout_address;
  if (!payout) return undefined;
  const collection = await tx
    .insertInto('collections')
    .values({
      id: c.id,
      project_id: c.projectId,
      network: c.network,
      livemode: c.livemode,
      payout_address: payout,
      status: 'pending',
      nonce: null,
      tx_hash: null,
      raw_tx: null,
      sent_at: null,
      gas_used: null,
      block_number: null,
      block_hash: null,
      last_error: null,
      created_at: c.now,
      confirmed_at: null,
      updated_at: c.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // Deposits are (forwarder, token) pairs: every uncollected confirmed payment of the pairs chosen.
  const taken = await sql<{ n: string }>`
    with chosen as (
      select p.invoice_id, p.currency, min(p.confirmed_at) as since
      from payments p join invoices i on i.id = p.invoice_id
      where i.project_id = ${c.projectId} and p.network = ${c.network} and ${deposited}
        and p.collection_id is null and i.payout_address = ${payout}
        and (p.sweep_failed_at is null or p.sweep_failed_at < ${failedBefore})
      group by p.invoice_id, p.currency
      order by since, p.invoice_id, p.currency
      limit ${c.limit}
    ),
    marked as (
      update payments p set collection_id = ${c.id}
      from chosen
      where p.invoice_id = chosen.invoice_id and p.currency = chosen.currency and p.network = ${c.network}
        and ${deposited} and p.collection_id is null
      returning 1
    )
    select count(*)::text as n from marked`.execute(tx);
  if (Number(taken.rows[0]?.n ?? 0) === 0) {
    await tx.deleteFrom('collections').where('id', '=', c.id).execute();
    return undefined;
  }
  return collection;
}

/** The deposits of a collection, in the order the factory is told them: forwarders never deployed first. */
export async function depositsOf(db: Db, collectionId: string): Promise<Deposit[]> {
  const { rows } = await sql<{
    invoice_id: string;
    project_id: string;
    token: string;
    amount: string;
    deployed: boolean;
  }>`
    select p.invoice_id, i.project_id, p.currency as token, sum(p.amount)::text as amount,
           exists (
             select 1 from payments q join collections c on c.id = q.collection_id
             where q.invoice_id = p.invoice_id and c.status = 'confirmed' and c.network = p.network
           ) as deployed
    from payments p join invoices i on i.id = p.invoice_id
    where p.collection_id = ${collectionId}
    group by p.invoice_id, i.project_id, p.currency, p.network
    order by deployed, p.invoice_id, p.currency`.execute(db);
  return rows.map((r) => ({
    invoiceId: r.invoice_id,
    projectId: r.project_id,
    token: r.token,
    amount: r.amount,
    deployed: r.deployed,
  }));
}

/** The network's collections still to send or to see confirmed, oldest first. */
export function openCollections(db: Db, network: string): Promise<CollectionRow[]> {
  return db
    .selectFrom('collections')
    .selectAll()
    .where('network', '=', network)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function updateCollection(db: Db, id: string, changes: Partial<CollectionRow>) {
  return db
    .updateTable('collections')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Gives deposits back: all of a collection's (it failed), or those whose sweep failed, marked with
 * when (`failedAt`) so automatic collections leave them alone for a while.
 */
export async function releaseDeposits(
  db: Db,
  collectionId: string,
  only?: ReadonlyArray<{ invoiceId: string; token: string }>,
  failedAt?: Date,
): Promise<void> {
  let q = db
    .updateTable('payments')
    .set(failedAt ? { collection_id: null, sweep_failed_at: failedAt } : { collection_id: null })
    .where('collection_id', '=', collectionId);
  if (only) {
    if (only.length === 0) return;
    q = q.where((eb) =>
      eb.or(only.map((d) => eb.and([eb('invoice_id', '=', d.invoiceId), eb('currency', '=', d.token)]))),
    );
  }
  await q.execute();
}

export function listCollections(db: Db, projectId: string, limit = 100) {
  return db
    .selectFrom('collections')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Per collection, its deposits' count and totals per token: what the API shows. */
export async function contentsOf(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const { rows } = await sql<{ collection_id: string; token: string; amount: string; deposits: string }>`
    select collection_id, currency as token, sum(amount)::text as amount,
           count(distinct invoice_id)::text as deposits
    from payments where collection_id = any(${ids as string[]}::text[])
    group by collection_id, currency`.execute(db);
  return rows;
}

/** A collection's event, in the outbox webhooks are delivered from (no invoice: it is the project's). */
export async function saveCollectionEvent(
  db: Transaction<Database>,
  e: {
    id: string;
    projectId: string;
    type: 'collection.confirmed' | 'collection.failed';
    body: string;
    at: Date;
  },
): Promise<void> {
  await insertEvents(db, [
    { id: e.id, projectId: e.projectId, invoiceId: null, type: e.type, body: e.body, createdAt: e.at },
  ]);
}

export async function saveCollectorState(db: Db, row: CollectorTable): Promise<void> {
  await db
    .insertInto('collectors')
    .values(row)
    .onConflict((oc) =>
      oc.column('network').doUpdateSet({
        address: row.address,
        state: row.state,
        balance: row.balance,
        checked_at: row.checked_at,
      }),
    )
    .execute();
}

export function collectorStates(db: Db) {
  return db.selectFrom('collectors').selectAll().execute();
}
