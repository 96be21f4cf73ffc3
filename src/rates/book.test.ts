import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { manualClock, TEST_REDIS_URL } from '../../test/app.js';
import { freshDatabase } from '../../test/database.js';
import {
  COINBASE_USDTEUR,
  coinbaseSpot,
  ECB_DAILY,
  ECB_PATH,
  KRAKEN_USDTEUR,
  krakenTicker,
  type RateSourceServer,
  rateSourceServer,
} from '../../test/rate-sources.js';
import type { DatabaseHandle } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import { randomBase62 } from '../ids.js';
import type { RateBook } from './book.js';
import { RateUnavailableError } from './errors.js';
import { openRates } from './open.js';
import { rateSettings } from './settings.js';

const USDT_EUR = { base: 'USDT', quote: 'EUR' };
const TIMEOUT_MS = 300;
// The ECB sheet of the fixtures is of 28 June 2024, 14:15 in Frankfurt: the clock starts that afternoon.
const START = new Date('2024-06-28T15:00:00Z');

let server: RateSourceServer;
let handle: DatabaseHandle;
let drop: () => Promise<void>;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await rateSourceServer();
  const fresh = await freshDatabase();
  handle = await fresh.open();
  drop = fresh.drop;
});
afterAll(async () => {
  await server.close();
  await handle.close();
  await drop();
});
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

// Every source answers, and all three agree within 1 %: 0.93, 0.931 and 0.934142923867 EUR per USD(T).
beforeEach(async () => {
  server.requests.length = 0;
  server.answer(KRAKEN_USDTEUR, { body: krakenTicker('USDTEUR', '0.92995', '0.93005') });
  server.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.931') });
  server.answer(ECB_PATH, { body: ECB_DAILY });
  await handle.db.deleteFrom('rate_quotes').execute();
});

const backends = TEST_REDIS_URL ? (['database', 'redis'] as const) : (['database'] as const);

async function book(
  clock: () => Date,
  env: {
    sources?: string;
    maxAge?: number;
    spread?: string;
    redis?: boolean;
    prefix?: string;
    timeoutMs?: number;
  } = {},
): Promise<RateBook> {
  const settings = rateSettings({
    sources: env.sources ?? 'kraken,coinbase,ecb',
    maxAgeSeconds: env.maxAge ?? 300,
    maxSpreadPercent: env.spread ?? '1',
    timeoutMs: env.timeoutMs ?? TIMEOUT_MS,
    cacheSeconds: 10,
    urls: { kraken: server.url, coinbase: server.url, ecb: server.url },
  });
  const rates = openRates({
    settings,
    db: handle.db,
    redisUrl: env.redis ? TEST_REDIS_URL : undefined,
    redisPrefix: env.prefix,
    log: pino({ level: 'silent' }),
    clock,
  });
  opened.push(rates);
  await rates.ready();
  return rates.book;
}

async function unavailable(lookup: Promise<unknown>) {
  const err = await lookup.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RateUnavailableError);
  return err as RateUnavailableError;
}

describe('the pricing rule (contract §19)', () => {
  test('the first source in the order prices; the next fresh answer agreed', async () => {
    const rate = await (await book(manualClock(START))).lookup(USDT_EUR);
    expect(rate).toMatchObject({ source: 'kraken', pair: 'USDT/EUR', value: '0.93' });
    const reordered = await (await book(manualClock(START), { sources: 'ecb,coinbase' })).lookup(USDT_EUR);
    expect(reordered).toMatchObject({ source: 'ecb', pair: 'USD/EUR', value: '0.934142923867' });
  });

  test('a failing source falls back to the next; each failure kind alike', async () => {
    for (const reply of [
      { status: 500, body: 'x' },
      { body: 'not json' },
      { body: { error: ['EService:Unavailable'] } },
    ]) {
      server.answer(KRAKEN_USDTEUR, reply);
      const rate = await (await book(manualClock(START))).lookup(USDT_EUR);
      expect(rate).toMatchObject({ source: 'coinbase', value: '0.931' });
    }
  });

  test('one fresh answer alone prices when every other source fails', async () => {
    server.answer(KRAKEN_USDTEUR, { status: 503, body: 'x' });
    server.answer(COINBASE_USDTEUR, { status: 503, body: 'x' });
    const rate = await (await book(manualClock(START))).lookup(USDT_EUR);
    expect(rate).toMatchObject({ source: 'ecb' });
  });

  test('a second fresh answer beyond the spread: no rate at all, a 503 with Retry-After', async () => {
    server.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.9394') }); // 1.01 % above 0.93
    const err = await unavailable((await book(manualClock(START))).lookup(USDT_EUR));
    expect(err.why).toBe('sources_disagree');
    // Within a wider spread the same answers price.
    expect(await (await book(manualClock(START), { spread: '1.5' })).lookup(USDT_EUR)).toMatchObject({
      source: 'kraken',
    });
  });

  test('the disagreement is checked against the next *fresh* answer: a stale one is skipped', async () => {
    const clock = manualClock(START);
    server.answer(COINBASE_USDTEUR, {
      body: coinbaseSpot('USDT', 'EUR', '0.99'),
      headers: { date: new Date(START.getTime() - 301_000).toUTCString() },
    });
    // Coinbase's answer is 301 s old: not fresh, so the ECB checks kraken and agrees.
    expect(await (await book(clock)).lookup(USDT_EUR)).toMatchObject({ source: 'kraken', value: '0.93' });
  });

  test('no fresh rate: every source failing, or only the ECB answering a day and more later', async () => {
    server.answer(KRAKEN_USDTEUR, { status: 500, body: 'x' });
    server.answer(COINBASE_USDTEUR, { body: { error: 'bad' } });
    const dayLater = manualClock(new Date('2024-06-29T12:16:00Z'));
    const stale = await unavailable((await book(dayLater)).lookup(USDT_EUR));
    expect(stale.why).toBe('no_fresh_rate');
    // The ECB is allowed a day: a minute inside it, its rate prices.
    expect(await (await book(manualClock(new Date('2024-06-29T12:14:00Z')))).lookup(USDT_EUR)).toMatchObject({
      source: 'ecb',
    });
    server.answer(ECB_PATH, { status: 404, body: 'gone' });
    await handle.db.deleteFrom('rate_quotes').execute(); // the clock went back: forget the answers kept above
    const err = await unavailable((await book(manualClock(START))).lookup(USDT_EUR));
    // What the HTTP layer renders: INTERNAL_SERVER_ERROR, 503, Retry-After, nothing about the sources.
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', statusCode: 503, details: {} });
    expect(Number(err.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(err.message).not.toMatch(/kraken|coinbase|ecb|127\.0\.0\.1/i);
  });

  test('sources that never answer cost one timeout in all, not one each: all are asked at once', async () => {
    for (const path of [KRAKEN_USDTEUR, COINBASE_USDTEUR, ECB_PATH]) server.answer(path, 'hang');
    // With a minute's timeout, the three requests can only all arrive while the lookup waits if
    // they were sent together: asked one after another, the second would wait for the first's minute.
    let settled = false;
    const lookup = (await book(manualClock(START), { timeoutMs: 60_000 })).lookup(USDT_EUR);
    lookup.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.waitFor(() => expect(server.requests).toHaveLength(3), { timeout: 10_000 });
    expect(settled).toBe(false);
    server.dropHanging();
    await unavailable(lookup);
  });

  test('a silent first source is waited for (it has precedence) until its timeout, then the next prices', async () => {
    server.answer(KRAKEN_USDTEUR, 'hang');
    const started = Date.now();
    expect(await (await book(manualClock(START))).lookup(USDT_EUR)).toMatchObject({ source: 'coinbase' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  });
});

describe.each(backends)('the cache, shared through %s', (backend) => {
  const redis = backend === 'redis';
  let prefix: string;
  beforeEach(() => {
    prefix = `paydesk:test:${randomBase62(8)}:rate:`;
  });

  test('a burst asks each source once; the interval over, once more', async () => {
    const clock = manualClock(START);
    const b = await book(clock, { redis, prefix });
    const rates = await Promise.all(Array.from({ length: 25 }, () => b.lookup(USDT_EUR)));
    expect(new Set(rates.map((r) => r.value))).toEqual(new Set(['0.93']));
    await b.settled();
    expect(b.calls()).toEqual({ kraken: 1, coinbase: 1, ecb: 1 });
    clock.advance(9_000);
    await b.lookup(USDT_EUR);
    expect(b.calls()).toEqual({ kraken: 1, coinbase: 1, ecb: 1 });
    clock.advance(1_500);
    await b.lookup(USDT_EUR);
    await b.settled();
    expect(b.calls()).toEqual({ kraken: 2, coinbase: 2, ecb: 2 });
    expect(server.count(KRAKEN_USDTEUR)).toBe(2);
  });

  test('another instance takes the shared answers and asks no source', async () => {
    const clock = manualClock(START);
    const first = await book(clock, { redis, prefix });
    await first.lookup(USDT_EUR);
    await first.settled();
    clock.advance(2_000);
    const other = await book(clock, { redis, prefix });
    expect(await other.lookup(USDT_EUR)).toMatchObject({ source: 'kraken', value: '0.93' });
    expect(other.calls()).toEqual({ kraken: 0, coinbase: 0, ecb: 0 });
    expect(server.count(KRAKEN_USDTEUR)).toBe(1);
  });

  test('a cached rate older than the maximum age is never used, even inside the cache interval', async () => {
    const clock = manualClock(START);
    // Kraken's answer is 298 s old when received: fresh, and cached.
    server.answer(KRAKEN_USDTEUR, {
      body: krakenTicker('USDTEUR', '0.92995', '0.93005'),
      headers: { date: new Date(START.getTime() - 298_000).toUTCString() },
    });
    const first = await book(clock, { redis, prefix });
    expect(await first.lookup(USDT_EUR)).toMatchObject({ source: 'kraken' });
    await first.settled();
    clock.advance(5_000);
    const other = await book(clock, { redis, prefix });
    expect(await other.lookup(USDT_EUR)).toMatchObject({ source: 'coinbase' });
    expect(other.calls()).toEqual({ kraken: 0, coinbase: 0, ecb: 0 });
  });
});

describe('health', () => {
  test('the last outcome of each source, without asking any', async () => {
    server.answer(KRAKEN_USDTEUR, { status: 502, body: 'x' });
    const clock = manualClock(START);
    const b = await book(clock, { sources: 'kraken,coinbase,ecb' });
    expect(b.health().map((h) => h.status)).toEqual(['untried', 'untried', 'untried']);
    await b.lookup(USDT_EUR);
    await b.settled();
    const requests = server.requests.length;
    expect(b.health()).toEqual([
      { source: 'kraken', status: 'failing', checked_at: START.toISOString(), reason: 'http_error' },
      { source: 'coinbase', status: 'ok', checked_at: START.toISOString(), reason: null },
      { source: 'ecb', status: 'ok', checked_at: START.toISOString(), reason: null },
    ]);
    expect(server.requests.length).toBe(requests);
  });
});
