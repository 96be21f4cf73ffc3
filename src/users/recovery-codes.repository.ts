import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export function deleteCodes(db: Db, userId: string) {
  return db.deleteFrom('dashboard_recovery_codes').where('user_id', '=', userId).execute();
}

export function insertCodes(db: Db, userId: string, hashes: Buffer[], now: Date) {
  return db
    .insertInto('dashboard_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null, created_at: now })))
    .execute();
}

/** Spends a code: only one of two concurrent uses finds it unused. */
export async function useCode(db: Db, userId: string, hash: Buffer, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('dashboard_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnused(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('dashboard_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
