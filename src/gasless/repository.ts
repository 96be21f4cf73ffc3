import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { GaslessAuthorizationRow, GaslessAuthorizationTable } from './authorization.table.js';

type Db = Kysely<Database>;

/** The invoice an authorization may pay, with what the checks need, and its payments. */
export async function invoiceToAuthorize(db: Db, id: string) {
  const row = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const payments = await db.selectFrom('payments').selectAll().where('invoice_id', '=', id).execute();
  return { row, payments };
}

/**
 * Records an authorization before it is sent. False when it is already recorded (the same signature
 * posted twice, or by two instances at once): the primary key is the token's own (token, authorizer,
 * nonce), so only one request ever sends it.
 */
export async function recordAuthorization(db: Db, row: GaslessAuthorizationTable): Promise<boolean> {
  const inserted = await db
    .insertInto('gasless_authorizations')
    .values(row)
    .onConflict((oc) => oc.columns(['network', 'token', 'authorizer', 'nonce']).doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return inserted !== undefined;
}

type Key = Pick<GaslessAuthorizationRow, 'network' | 'token' | 'authorizer' | 'nonce'>;

export function findAuthorization(db: Db, key: Key) {
  return db
    .selectFrom('gasless_authorizations')
    .selectAll()
    .where('network', '=', key.network)
    .where('token', '=', key.token)
    .where('authorizer', '=', key.authorizer)
    .where('nonce', '=', key.nonce)
    .executeTakeFirst();
}

export async function setTransaction(db: Db, key: Key, txHash: string): Promise<void> {
  await db
    .updateTable('gasless_authorizations')
    .set({ tx_hash: txHash })
    .where('network', '=', key.network)
    .where('token', '=', key.token)
    .where('authorizer', '=', key.authorizer)
    .where('nonce', '=', key.nonce)
    .execute();
}

/** An authorization whose send failed before it reached the node: forgotten, so it may be posted again. */
export async function forgetAuthorization(db: Db, key: Key): Promise<void> {
  await db
    .deleteFrom('gasless_authorizations')
    .where('network', '=', key.network)
    .where('token', '=', key.token)
    .where('authorizer', '=', key.authorizer)
    .where('nonce', '=', key.nonce)
    .where('tx_hash', 'is', null)
    .execute();
}

/**
 * The authorizations a watcher of `network` looks for in the blocks it reads: those that can still be
 * mined (valid before `since`), by any sender. A day of margin covers a watcher catching up.
 */
export function authorizationsToWatch(db: Db, network: string, since: Date) {
  return db
    .selectFrom('gasless_authorizations')
    .selectAll()
    .where('network', '=', network)
    .where('valid_before', '>', since)
    .execute();
}
