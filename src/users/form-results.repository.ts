import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** Claims a form's one-time token for a session: true for the first claim, false for any later one. */
export async function claim(db: Db, sessionHash: Buffer, once: string, now: Date): Promise<boolean> {
  const rows = await db
    .insertInto('dashboard_form_results')
    .values({ session_hash: sessionHash, once, location: null, sealed_secret: null, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('once')
    .execute();
  return rows.length === 1;
}

export function find(db: Db, sessionHash: Buffer, once: string) {
  return db
    .selectFrom('dashboard_form_results')
    .select(['location'])
    .where('session_hash', '=', sessionHash)
    .where('once', '=', once)
    .executeTakeFirst();
}

export function setLocation(db: Db, sessionHash: Buffer, once: string, location: string) {
  return db
    .updateTable('dashboard_form_results')
    .set({ location })
    .where('session_hash', '=', sessionHash)
    .where('once', '=', once)
    .execute();
}

export function setSecret(db: Db, sessionHash: Buffer, once: string, sealed: Buffer) {
  return db
    .updateTable('dashboard_form_results')
    .set({ sealed_secret: sealed })
    .where('session_hash', '=', sessionHash)
    .where('once', '=', once)
    .execute();
}

export function release(db: Db, sessionHash: Buffer, once: string) {
  return db
    .deleteFrom('dashboard_form_results')
    .where('session_hash', '=', sessionHash)
    .where('once', '=', once)
    .where('location', 'is', null)
    .execute();
}

/** The sealed secret, cleared in the same statement: whoever reads it first is the only one who does. */
export async function takeSecret(db: Db, sessionHash: Buffer, once: string): Promise<Buffer | undefined> {
  const result = await sql<{ sealed_secret: Buffer }>`
    with old as (
      select session_hash, once, sealed_secret from dashboard_form_results
      where session_hash = ${sessionHash} and once = ${once} and sealed_secret is not null
      for update
    )
    update dashboard_form_results r set sealed_secret = null
    from old
    where r.session_hash = old.session_hash and r.once = old.once
    returning old.sealed_secret`.execute(db);
  return result.rows[0]?.sealed_secret;
}
