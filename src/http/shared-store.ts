import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { memoryStore, type RateLimitStore, redisStore } from './rate-limit.js';

/** Whether counts are shared through Redis right now, for /v1/health. */
export type SharedStatus = 'ok' | 'unavailable';

export interface SharedStoreOptions {
  prefix?: string;
  /** A command that takes longer counts as a failure (a hung server must not hold requests up). */
  commandTimeoutMs?: number;
  /** While Redis is unavailable, how often it is asked whether it is back. */
  probeMs?: number;
}

/**
 * The rate limits' store when REDIS_URL is set. Redis is a protection, not a dependency: whenever it
 * cannot answer (down at start-up, gone later, hung), counting falls back at once to this process's
 * own counters, the API keeps serving, one warning is logged, and /v1/health says
 * `redis: "unavailable"`. When Redis answers again, counting is shared again (one log line). No
 * request ever waits on a connection: commands are never queued while disconnected, and a hung server
 * costs at most one command timeout before the fallback.
 */
export function resilientRedisStore(
  url: string,
  log: FastifyBaseLogger,
  options: SharedStoreOptions = {},
): RateLimitStore & { readonly status: SharedStatus } {
  const redis = new Redis(url, {
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 250,
    connectTimeout: 1_000,
    // Reconnect for ever, backing off to one attempt every 5 s.
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 6), 5_000),
  });
  const shared = redisStore(redis, options.prefix);
  const local = memoryStore();
  let status: SharedStatus = 'unavailable';
  let announced = false;
  let probe: NodeJS.Timeout | undefined;

  const up = () => {
    if (probe) clearInterval(probe);
    probe = undefined;
    if (status === 'ok') return;
    status = 'ok';
    announced = true;
    log.info({ redis: 'ok' }, 'Redis available: rate limits are shared across instances');
  };
  const down = (reason: string) => {
    if (status === 'ok' || !announced) {
      log.warn(
        { redis: 'unavailable', reason },
        'Redis unavailable: rate limits are counted in this process',
      );
    }
    status = 'unavailable';
    announced = true;
    // A connection that stays "ready" while its server hangs raises no event: ask it ourselves.
    probe ??= setInterval(() => {
      if (redis.status === 'ready') redis.ping().then(up, () => {});
    }, options.probeMs ?? 1_000).unref();
  };

  // ioredis emits 'error' for every failed attempt; handled here, it never prints "Unhandled error".
  redis.on('error', (err: Error & { code?: string }) => down(err.code ?? err.name));
  redis.on('ready', () => redis.ping().then(up, () => down('ping failed')));
  redis.on('close', () => down('connection closed'));

  const fallback =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>, local: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (status !== 'ok') return local(...args);
      try {
        return await call(...args);
      } catch (err) {
        down((err as Error).name);
        return local(...args);
      }
    };

  return {
    get status() {
      return status;
    },
    hit: fallback(shared.hit, local.hit),
    peek: fallback(shared.peek, local.peek),
    async close() {
      if (probe) clearInterval(probe);
      redis.removeAllListeners('error');
      redis.on('error', () => {});
      redis.disconnect();
      await local.close();
    },
  };
}
