import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { insertEvents } from '../events/repository.js';
import type { CollectionRow, CollectorTable } from './collection.table.js';
import type { CollectionState } from './lifecycle.js';

type Db = Kysely<Database> | Transaction<Database>;

/** One deposit of a collection: a forwarder (by its invoice) and a token it holds. */
export interface Deposit {
  invoiceId: string;
  projectId: string;
  token: string;
  /** The sum of its payments in the collection, numeric as a decimal string. */
  amount: string;
  /** True when a confirmed collection already deployed this forwarder (the factory's `fresh` hint). */
  deployed: boolean;
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
             where q.invoice_id = p.invoice_id and c.phase = 'confirmed' and c.network = p.network
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

/** The network's collections still to sign, send or see confirmed, oldest first. */
export function openCollections(db: Db, network: string): Promise<CollectionRow[]> {
  return db
    .selectFrom('collections')
    .selectAll()
    .where('network', '=', network)
    .where('phase', 'in', ['queued', 'signed', 'mined'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A collection, locked until the end of the transaction: what its one writer re-reads (change.ts). */
export function lockCollection(tx: Transaction<Database>, id: string): Promise<CollectionRow> {
  return tx.selectFrom('collections').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
}

export function saveCollection(tx: Transaction<Database>, id: string, state: CollectionState) {
  return tx
    .updateTable('collections')
    .set(state)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The highest nonce `signer` ever used for a collection on `network` (every one of them is spent). */
export async function lastNonce(db: Db, network: string, signer: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('collections')
    .select((eb) => eb.fn.max('nonce').as('nonce'))
    .where('network', '=', network)
    .where('signer', '=', signer)
    .executeTakeFirst();
  return row?.nonce == null ? undefined : Number(row.nonce);
}

/** Every transaction signed for a collection, the latest first. */
export function transactionsOf(db: Db, collectionId: string) {
  return db
    .selectFrom('collection_transactions')
    .select(['tx_hash', 'attempt', 'raw_tx'])
    .where('collection_id', '=', collectionId)
    .orderBy('attempt', 'desc')
    .execute();
}

export async function saveTransaction(
  tx: Transaction<Database>,
  t: { hash: string; collectionId: string; attempt: number; raw: string; at: Date },
): Promise<void> {
  await tx
    .insertInto('collection_transactions')
    .values({
      tx_hash: t.hash,
      collection_id: t.collectionId,
      attempt: t.attempt,
      raw_tx: t.raw,
      created_at: t.at,
    })
    .execute();
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

/**
 * Takes or keeps the lead of a network's collector: a holder that is not the row's gets a new term,
 * so whatever the previous holder still had in flight is refused by holdLease. Called by the instance
 * the advisory lock made leader (src/jobs/leadership.ts), at the start of its rounds.
 */
export async function claimLease(db: Db, network: string, holder: string, now: Date): Promise<string> {
  const row = await db
    .insertInto('collector_leases')
    .values({ network, term: '1', holder, since: now })
    .onConflict((oc) =>
      oc.column('network').doUpdateSet({
        term: sql`collector_leases.term + 1`,
        holder,
        since: now,
      }),
    )
    .returning('term')
    .executeTakeFirstOrThrow();
  return String(row.term);
}

/** The lease as it stands, locked until the end of the transaction (the fence every write passes). */
export async function lockLease(tx: Transaction<Database>, network: string) {
  return tx
    .selectFrom('collector_leases')
    .select(['term', 'holder'])
    .where('network', '=', network)
    .forUpdate()
    .executeTakeFirst();
}
