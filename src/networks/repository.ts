import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { XpubFamily } from './family.js';

/**
 * Takes the next child index of each of the project's xpubs the invoice needs (one per family),
 * atomically: the upsert locks each key's row, so concurrent creates on any number of instances each
 * get their own index, and an index is never handed out twice (one burnt by a failed or replayed
 * create is simply skipped). The keys are read in the same statement, so an index always belongs to
 * the key the address is derived from.
 */
export async function takeAddressIndexes(db: Kysely<Database>, projectId: string, families: XpubFamily[]) {
  const { rows } = await sql<{ family: XpubFamily; xpub: string; index: string }>`
    with keys as (
      select k.family, k.xpub
      from projects p cross join lateral (values ('evm', p.evm_xpub), ('tron', p.tron_xpub)) as k(family, xpub)
      where p.id = ${projectId} and k.family = any(${families}::text[]) and k.xpub is not null
    ),
    taken as (
      insert into xpub_indexes (xpub, next_index)
      select xpub, 1 from keys
      on conflict (xpub) do update set next_index = xpub_indexes.next_index + 1
      returning xpub, next_index - 1 as index
    )
    select keys.family, taken.xpub, taken.index from keys join taken using (xpub)`.execute(db);
  return rows;
}
