import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Takes the next child index of the project's xpub, atomically: the upsert locks the key's row, so
 * concurrent creates on any number of instances each get their own index, and an index is never
 * handed out twice (one burnt by a failed or replayed create is simply skipped). The xpub is read in
 * the same statement, so an index always belongs to the key the address is derived from.
 */
export async function takeAddressIndex(db: Kysely<Database>, projectId: string) {
  const { rows } = await sql<{ xpub: string; index: string }>`
    insert into xpub_indexes (xpub, next_index)
    select xpub, 1 from projects where id = ${projectId} and xpub is not null
    on conflict (xpub) do update set next_index = xpub_indexes.next_index + 1
    returning xpub, next_index - 1 as index`.execute(db);
  return rows[0];
}
