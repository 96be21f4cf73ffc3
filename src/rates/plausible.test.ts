import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import {
  coinbaseSpot,
  ECB_PATH,
  krakenTicker,
  type RateSourceServer,
  rateSourceServer,
} from '../../test/rate-sources.js';
import { RateUnavailableError } from './errors.js';
import { openRates } from './open.js';
import { decide } from './pricing.js';
import type { RateSource } from './rate.js';

/**
 * Contract §21, "Rates must be plausible", through the HTTP app and the sources' local stand-ins.
 * Kraken prices, Coinbase is the second source, the ECB is down throughout. Each test uses its own
 * currency, so the last rate used for one pair never leaks into another test.
 */
const clock = manualClock(new Date('2024-06-28T15:00:00Z'));
const CACHE_MS = 10_000;
const SANDBOX = [{ network: 'sandbox', currency: 'USDT' }];

let server: RateSourceServer;
let t: TestApp;

beforeAll(async () => {
  server = await rateSourceServer();
  server.answer(ECB_PATH, { status: 500, body: 'down' });
  t = await startTestApp({
    clock,
    env: {
      PAYDESK_RATE_KRAKEN_URL: server.url,
      PAYDESK_RATE_COINBASE_URL: server.url,
      PAYDESK_RATE_ECB_URL: server.url,
      // No source here hangs (a down one resets): a long bound only keeps a loaded machine from timing out.
      PAYDESK_RATE_TIMEOUT_MS: '5000',
      PAYDESK_RATE_CACHE_SECONDS: String(CACHE_MS / 1000),
    },
  });
});
afterAll(async () => {
  await t.close();
  await server.close();
});

/** The two sources' answers for USDT in `currency` (undefined: the source is down), past every cache. */
async function quotes(currency: string, kraken: string | undefined, coinbase: string | undefined) {
  server.answer(
    `/0/public/Ticker?pair=USDT${currency}`,
    kraken ? { body: krakenTicker(`USDT${currency}`, kraken, kraken) } : 'reset',
  );
  server.answer(
    `/v2/prices/USDT-${currency}/spot`,
    coinbase ? { body: coinbaseSpot('USDT', currency, coinbase) } : 'reset',
  );
  clock.advance(CACHE_MS + 1);
  await t.app.rates.settled();
}

async function merchantIn(currency: string) {
  const m = await createMerchant(t.app, { currency, payment_methods: SANDBOX });
  return (body = { amount: '20.00' }) => createInvoice(t.app, m, body);
}

describe('a fresh rate far from the last one used', () => {
  test('alone, it prices nothing: 503 with Retry-After, nothing stored', async () => {
    const create = await merchantIn('EUR');
    await quotes('EUR', '0.934', '0.9341');
    expect((await create()).json().data.rate.value).toBe('0.934');
    // 12.4 % above the last rate used, and no second source to say so.
    await quotes('EUR', '1.05', undefined);
    const res = await create();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Within PAYDESK_RATE_MAX_JUMP_PERCENT of the last rate used, one source alone prices again.
    await quotes('EUR', '0.99', undefined);
    expect((await create()).json().data.rate.value).toBe('0.99');
  });

  test('confirmed by a second source within the spread, it prices and is the new reference', async () => {
    const create = await merchantIn('GBP');
    await quotes('GBP', '0.79', '0.7905');
    expect((await create()).statusCode).toBe(201);
    await quotes('GBP', '0.90', '0.901');
    expect((await create()).json().data.rate.value).toBe('0.9');
    // 2.2 % from 0.90 (the new reference), 16 % from 0.79: alone, it prices.
    await quotes('GBP', '0.92', undefined);
    expect((await create()).json().data.rate.value).toBe('0.92');
  });

  test('the reference is the last rate used in the past 24 h: a day later a lone source prices', async () => {
    const create = await merchantIn('CAD');
    await quotes('CAD', '1.27', '1.2705');
    expect((await create()).statusCode).toBe(201);
    clock.advance(24 * 3600_000);
    await quotes('CAD', '1.5', undefined);
    expect((await create()).json().data.rate.value).toBe('1.5');
  });

  test('every instance reads the same reference: another instance refuses the same jump', async () => {
    const create = await merchantIn('CHF');
    await quotes('CHF', '0.88', '0.8805');
    expect((await create()).statusCode).toBe(201);
    // Another instance: its own rate book, nothing in memory, the same database.
    const other = openRates({ settings: t.app.config.rates, db: t.app.db, log: t.app.log, clock });
    await quotes('CHF', '1.2', undefined);
    const refused = await other.book.lookup({ base: 'USDT', quote: 'CHF' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateUnavailableError);
    await other.book.settled();
    await other.close();
  });
});

describe('a rate that is not a positive finite number', () => {
  test.each(['0', '-0.93', 'NaN', 'Infinity', '1e400', '0.000'])(
    '%s from a lone source never prices',
    async (value) => {
      const currency = 'AUD';
      const create = await merchantIn(currency);
      await quotes(currency, undefined, value);
      const res = await create();
      expect(res.statusCode).toBe(503);
    },
  );
});

test('a quote that is not a positive decimal, from wherever it came (a cache), never prices', async () => {
  const source: RateSource = {
    name: 'kraken',
    maxAgeMs: 60_000,
    quote: () => Promise.reject(new Error('not asked')),
  };
  for (const value of ['0', '-1', 'NaN', '']) {
    const quote = { source: 'kraken' as const, pair: 'USDT/EUR', value, fetchedAt: clock(), asOf: clock() };
    const decision = await decide([{ source, outcome: Promise.resolve({ ok: true, quote }) }], clock, {
      units: 1n,
      scale: 0,
    });
    expect(decision.ok, value).toBe(false);
  }
});

describe('PAYDESK_RATE_MAX_AGE_SECONDS alone', () => {
  test('5 starts the server: the cache defaults to the smaller of 10 s and the maximum age', async () => {
    const five = await startTestApp({ env: { PAYDESK_RATE_MAX_AGE_SECONDS: '5' } });
    try {
      expect(five.app.config.rates.cacheMs).toBe(5000);
      expect((await five.app.inject({ url: '/v1/health' })).statusCode).toBe(200);
    } finally {
      await five.close();
    }
  });
});
