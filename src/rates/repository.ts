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

/** The last rate used per pair, shared by every instance (migration 0019). */
export interface UsedRates {
  /** The value last used for `pair` at or after `since`, if any. */
  last(pair: string, since: Date): Promise<string | undefined>;
  record(pair: string, value: string, at: Date): Promise<void>;
}

export function usedRates(db: Kysely<Database>): UsedRates {
  return {
    async last(pair, since) {
      const row = await db
        .selectFrom('rate_used')
        .select(sql<string>`value::text`.as('value'))
        .where('pair', '=', pair)
        .where('used_at', '>=', since)
        .executeTakeFirst();
      return row?.value;
    },
    async record(pair, value, at) {
      await db
        .insertInto('rate_used')
        .values({ pair, value, used_at: at })
        // Two instances pricing at once: the later use is the reference.
        .onConflict((oc) =>
          oc
            .column('pair')
            .doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), used_at: eb.ref('excluded.used_at') }))
            .where('rate_used.used_at', '<=', (eb) => eb.ref('excluded.used_at')),
        )
        .execute();
    },
  };
}
