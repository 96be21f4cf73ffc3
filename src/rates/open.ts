import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createRateBook, type RateBook } from './book.js';
import { redisQuotes, type SharedQuotes } from './cache.js';
import { plausibility } from './plausible.js';
import { postgresQuotes, usedRates } from './repository.js';
import type { RateSettings } from './settings.js';
import { rateSources } from './sources.js';

export interface OpenRatesOptions {
  settings: RateSettings;
  db: Kysely<Database>;
  /** Set: the shared cache is Redis, with PostgreSQL whenever Redis does not answer. */
  redisUrl?: string | undefined;
  /** Keys under this prefix (tests sharing one Redis keep apart). */
  redisPrefix?: string;
  log: FastifyBaseLogger;
  clock?: () => Date;
}

/** The rate book of one instance, with its shared cache; `close` ends its Redis connection. */
export function openRates(o: OpenRatesOptions): {
  book: RateBook;
  /** Resolves once Redis answers (at once without Redis); until then the database is the shared cache. */
  ready(): Promise<void>;
  close(): Promise<void>;
} {
  const clock = o.clock ?? (() => new Date());
  const inDatabase = postgresQuotes(o.db);
  const redis = o.redisUrl
    ? new Redis(o.redisUrl, {
        // As the rate limiter's (http/shared-store.ts): never queue a command while disconnected.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 250,
        connectTimeout: 1_000,
        retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 6), 5_000),
      })
    : undefined;
  redis?.on('error', () => {}); // each failed command is logged by the book; reconnects are ioredis's
  const shared = redis
    ? orElse(redisQuotes(redis, o.settings.cacheMs, o.redisPrefix), inDatabase)
    : inDatabase;
  const book = createRateBook({
    sources: rateSources(o.settings, clock),
    shared,
    maxSpreadPercent: o.settings.maxSpreadPercent,
    plausibility: plausibility({
      used: usedRates(o.db),
      maxJumpPercent: o.settings.maxJumpPercent,
      clock,
      log: o.log,
    }),
    cacheMs: o.settings.cacheMs,
    timeoutMs: o.settings.timeoutMs,
    clock,
    log: o.log,
  });
  return {
    book,
    async ready() {
      if (redis && redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    },
    async close() {
      redis?.disconnect();
    },
  };
}

/** Redis while it answers, the database when it does not: a cache outage never costs a source call per lookup. */
function orElse(first: SharedQuotes, second: SharedQuotes): SharedQuotes {
  return {
    get: (source, pair) => first.get(source, pair).catch(() => second.get(source, pair)),
    put: (pair, quote) => first.put(pair, quote).catch(() => second.put(pair, quote)),
  };
}
