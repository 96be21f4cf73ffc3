import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { SharedQuotes } from './cache.js';
import { formatDecimal, parseRate } from './decimal.js';
import type { Quote } from './rate.js';
import type { SourceName } from './settings.js';

/** The shared cache in PostgreSQL (migration 0011): one row per source and pair, the newest answer wins. */
export function postgresQuotes(db: Kysely<Database>): SharedQuotes {
  return {
    async get(source, pair) {
      const row = await db
        .selectFrom('rate_quotes')
        .select(['quoted_pair', sql<string>`value::text`.as('value'), 'fetched_at', 'as_of'])
        .where('source', '=', source)
        .where('pair', '=', pair)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        source: source as SourceName,
        pair: row.quoted_pair,
        value: formatDecimal(parseRate(row.value) ?? { units: 0n, scale: 0 }),
        fetchedAt: row.fetched_at,
        asOf: row.as_of,
      };
    },
    async put(pair: string, q: Quote) {
      await db
        .insertInto('rate_quotes')
        .values({
          source: q.source,
          pair,
          quoted_pair: q.pair,
          value: q.value,
          fetched_at: q.fetchedAt,
          as_of: q.asOf,
        })
        // Two instances that missed at once both write; the later answer stays.
        .onConflict((oc) =>
          oc
            .columns(['source', 'pair'])
            .doUpdateSet((eb) => ({
              quoted_pair: eb.ref('excluded.quoted_pair'),
              value: eb.ref('excluded.value'),
              fetched_at: eb.ref('excluded.fetched_at'),
              as_of: eb.ref('excluded.as_of'),
            }))
            .where('rate_quotes.fetched_at', '<', (eb) => eb.ref('excluded.fetched_at')),
        )
        .execute();
    },
  };
}
