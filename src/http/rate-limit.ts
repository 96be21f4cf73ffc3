import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { ApiError } from './errors.js';

export interface WindowHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** A fixed-window counter, in-process or shared through Redis. */
export interface RateLimitStore {
  hit(key: string, windowMs: number, now: number): Promise<WindowHit>;
  /** Reads without counting (the auth-failure limiter checks before it knows the outcome). */
  peek(key: string, windowMs: number, now: number): Promise<WindowHit>;
  /** A shared store's state (see shared-store.ts); absent for the in-process store. */
  readonly status?: 'ok' | 'unavailable';
  close(): Promise<void>;
}

export function memoryStore(): RateLimitStore {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string, windowMs: number, now: number) => {
    const start = now - (now % windowMs);
    let w = windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      windows.set(key, w);
    }
    return w;
  };
  // Old windows are dropped periodically so the map does not grow with every address ever seen.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [k, w] of windows) if (now - w.start > 3_600_000) windows.delete(k);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, windowMs, now) {
      const w = current(key, windowMs, now);
      w.count++;
      return { count: w.count, resetMs: w.start + windowMs - now };
    },
    async peek(key, windowMs, now) {
      const w = current(key, windowMs, now);
      return { count: w.count, resetMs: w.start + windowMs - now };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

// INCR and PEXPIRE in one round trip, atomically: every instance sees one counter per window.
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

export function redisStore(redis: Redis, prefix = 'paydesk:rl:'): RateLimitStore {
  const windowKey = (key: string, windowMs: number, now: number) => {
    const start = now - (now % windowMs);
    return { redisKey: `${prefix}${key}:${start}`, resetMs: start + windowMs - now };
  };
  return {
    async hit(key, windowMs, now) {
      const { redisKey, resetMs } = windowKey(key, windowMs, now);
      const count = Number(await redis.eval(HIT_SCRIPT, 1, redisKey, String(windowMs + 1000)));
      return { count, resetMs };
    },
    async peek(key, windowMs, now) {
      const { redisKey, resetMs } = windowKey(key, windowMs, now);
      return { count: Number((await redis.get(redisKey)) ?? 0), resetMs };
    },
    async close() {
      redis.disconnect();
    },
  };
}

export function rateLimitedError(resetMs: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
  return new ApiError('RATE_LIMITED', `Too many requests; retry in ${retryAfter} s`, {
    details: { retry_after_seconds: retryAfter },
    headers: { 'Retry-After': String(retryAfter) },
  });
}

export interface Limit {
  max: number;
  windowMs: number;
}

/** Counts one request against `key`, sets the RateLimit-* headers, and throws RATE_LIMITED past the limit. */
export async function enforce(
  store: RateLimitStore,
  reply: FastifyReply,
  key: string,
  limit: Limit,
  now: number,
): Promise<void> {
  const { count, resetMs } = await store.hit(key, limit.windowMs, now);
  const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
  reply.header('RateLimit-Limit', String(limit.max));
  reply.header('RateLimit-Remaining', String(Math.max(0, limit.max - count)));
  reply.header('RateLimit-Reset', String(resetSeconds));
  if (count > limit.max) throw rateLimitedError(resetMs);
}
