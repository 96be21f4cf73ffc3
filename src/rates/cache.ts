import type { Redis } from 'ioredis';
import { formatDecimal, parseRate } from './decimal.js';
import type { Quote } from './rate.js';
import type { SourceName } from './settings.js';

/** The last answer of each source for each pair, shared by every instance (PostgreSQL or Redis). */
export interface SharedQuotes {
  get(source: SourceName, pair: string): Promise<Quote | undefined>;
  put(pair: string, quote: Quote): Promise<void>;
}

/**
 * The shared cache in Redis, when REDIS_URL is set: one key per source and pair, expiring with the
 * cache interval, so Redis forgets what nobody may use. Values are read back strictly: a key
 * somebody else wrote in another shape is a miss.
 */
export function redisQuotes(redis: Redis, ttlMs: number, prefix = 'paydesk:rate:'): SharedQuotes {
  return {
    async get(source, pair) {
      const text = await redis.get(`${prefix}${source}:${pair}`);
      return text ? fromJson(source, text) : undefined;
    },
    async put(pair, q) {
      const value = JSON.stringify({
        pair: q.pair,
        value: q.value,
        fetched_at: q.fetchedAt.toISOString(),
        as_of: q.asOf.toISOString(),
      });
      await redis.set(`${prefix}${q.source}:${pair}`, value, 'PX', ttlMs);
    },
  };
}

function fromJson(source: SourceName, text: string): Quote | undefined {
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const value = parseRate(o.value);
    const fetchedAt = new Date(String(o.fetched_at));
    const asOf = new Date(String(o.as_of));
    if (!value || typeof o.pair !== 'string' || Number.isNaN(fetchedAt.getTime() + asOf.getTime())) {
      return undefined;
    }
    return { source, pair: o.pair, value: formatDecimal(value), fetchedAt, asOf };
  } catch {
    return undefined;
  }
}
