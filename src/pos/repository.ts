import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { PinFailureRow, TillItem, TillRow } from './till.table.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertTill(db: Db, till: Omit<TillRow, 'items'> & { items: TillItem[] }) {
  await db
    .insertInto('tills')
    .values({ ...till, items: JSON.stringify(till.items) })
    .execute();
}

export function findTill(db: Db, id: string) {
  return db.selectFrom('tills').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listProjectTills(db: Db, projectId: string) {
  return db
    .selectFrom('tills')
    .select(['id', 'name', 'items', 'currency', 'active', 'created_at'])
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function setTillActive(db: Db, projectId: string, id: string, active: boolean) {
  const r = await db
    .updateTable('tills')
    .set({ active })
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** The project's invoice settings a till sells with (its currency and methods, as an API key's). */
export function findSellingProject(db: Db, projectId: string) {
  return db
    .selectFrom('projects as p')
    .innerJoin('accounts as a', 'a.id', 'p.account_id')
    .select([
      'p.id',
      'p.name',
      'p.status',
      'a.status as account_status',
      'p.currency',
      'p.network',
      'p.payment_methods',
      'p.underpayment_tolerance_percent',
      'p.invoice_ttl_seconds',
      'p.payout_address',
      'p.solana_address',
      'p.evm_xpub',
    ])
    .where('p.id', '=', projectId)
    .executeTakeFirst();
}

/** A till's invoice: only one charged at this very till is found. */
export function findTillInvoice(db: Db, tillId: string, invoiceId: string) {
  return db
    .selectFrom('invoices')
    .select(['id', 'status', 'amount', 'currency', 'description'])
    .where('id', '=', invoiceId)
    .where('till_id', '=', tillId)
    .executeTakeFirst();
}

/** The counters of the given scopes, locked for the rest of the transaction (one row each, made when missing). */
export async function lockCounters(
  tx: Transaction<Database>,
  keys: Array<Pick<PinFailureRow, 'scope' | 'key'>>,
  now: Date,
) {
  await tx
    .insertInto('till_pin_failures')
    .values(keys.map((k) => ({ ...k, failures: 0, first_failed_at: now, locked_until: null })))
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .execute();
  const rows: PinFailureRow[] = [];
  // One at a time, in the given order (till, then client): two attempts never wait on each other crosswise.
  for (const k of keys) {
    rows.push(
      await tx
        .selectFrom('till_pin_failures')
        .selectAll()
        .where('scope', '=', k.scope)
        .where('key', '=', k.key)
        .forUpdate()
        .executeTakeFirstOrThrow(),
    );
  }
  return rows;
}

export async function writeCounter(tx: Transaction<Database>, row: PinFailureRow) {
  await tx
    .updateTable('till_pin_failures')
    .set({ failures: row.failures, first_failed_at: row.first_failed_at, locked_until: row.locked_until })
    .where('scope', '=', row.scope)
    .where('key', '=', row.key)
    .execute();
}

export async function clearCounters(db: Db, keys: Array<Pick<PinFailureRow, 'scope' | 'key'>>) {
  for (const k of keys) {
    await db.deleteFrom('till_pin_failures').where('scope', '=', k.scope).where('key', '=', k.key).execute();
  }
}
