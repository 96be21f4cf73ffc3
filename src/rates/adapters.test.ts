import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  COINBASE_NOT_FOUND,
  COINBASE_USDTEUR,
  coinbaseSpot,
  ECB_DAILY,
  ECB_PATH,
  KRAKEN_UNAVAILABLE,
  KRAKEN_UNKNOWN_PAIR,
  KRAKEN_USDTEUR,
  krakenTicker,
  type RateSourceServer,
  rateSourceServer,
} from '../../test/rate-sources.js';
import { coinbaseSource } from './coinbase.js';
import { ecbSource } from './ecb.js';
import { krakenSource, type SourceOptions } from './kraken.js';
import { rateSettings } from './settings.js';

const USDT_EUR = { base: 'USDT', quote: 'EUR' };
const TIMEOUT_MS = 300;
let server: RateSourceServer;

beforeAll(async () => {
  server = await rateSourceServer();
});
afterAll(() => server.close());

function options(url = server.url): SourceOptions {
  const settings = rateSettings({
    sources: 'kraken,coinbase,ecb',
    maxAgeSeconds: 300,
    maxSpreadPercent: '1',
    timeoutMs: TIMEOUT_MS,
    cacheSeconds: 10,
    urls: { kraken: url, coinbase: url, ecb: url },
  });
  return {
    endpoint: settings.endpoints.kraken,
    timeoutMs: TIMEOUT_MS,
    maxAgeMs: 300_000,
    clock: () => new Date(),
  };
}

const reason = (r: string) => expect.objectContaining({ name: 'SourceError', reason: r });

describe('each adapter against its recorded answers', () => {
  test('Kraken: the Ticker mid price, with the time of the answer', async () => {
    server.answer(KRAKEN_USDTEUR, { body: krakenTicker('USDTEUR', '0.92440', '0.92450') });
    const before = Date.now();
    const q = await krakenSource(options()).quote(USDT_EUR);
    expect(q).toMatchObject({ source: 'kraken', pair: 'USDT/EUR', value: '0.92445' });
    expect(q.asOf.getTime()).toBeGreaterThanOrEqual(before - 1000); // the Date header has whole seconds
  });

  test('Coinbase: the spot amount', async () => {
    server.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.9246') });
    expect(await coinbaseSource(options()).quote(USDT_EUR)).toMatchObject({
      source: 'coinbase',
      pair: 'USDT/EUR',
      value: '0.9246',
    });
  });

  test('ECB: USDT at par with USD, its pair saying so, as of the reference day', async () => {
    server.answer(ECB_PATH, { body: ECB_DAILY });
    const q = await ecbSource(options()).quote(USDT_EUR);
    expect(q).toMatchObject({ source: 'ecb', pair: 'USD/EUR', value: '0.934142923867' });
    expect(q.asOf.toISOString()).toBe('2024-06-28T12:15:00.000Z');
  });
});

describe('errors', () => {
  test('HTTP errors, in each API', async () => {
    server.answer(KRAKEN_USDTEUR, { status: 502, body: '<html>Bad gateway</html>' });
    server.answer(COINBASE_USDTEUR, {
      status: 503,
      body: { errors: [{ id: 'internal_server_error', message: 'x' }] },
    });
    server.answer(ECB_PATH, { status: 500, body: 'oops' });
    await expect(krakenSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('http_error'));
    await expect(coinbaseSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('http_error'));
    await expect(ecbSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('http_error'));
  });

  test("errors in the source's own format: Kraken's error array, Coinbase's errors[] with a 404", async () => {
    server.answer(KRAKEN_USDTEUR, { body: KRAKEN_UNKNOWN_PAIR });
    await expect(krakenSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('unsupported_pair'));
    server.answer(KRAKEN_USDTEUR, { body: KRAKEN_UNAVAILABLE });
    await expect(krakenSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('source_error'));
    server.answer(COINBASE_USDTEUR, { status: 404, body: COINBASE_NOT_FOUND });
    await expect(coinbaseSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('unsupported_pair'));
  });

  test('malformed bodies: not JSON, JSON of another shape, an oversized body', async () => {
    server.answer(KRAKEN_USDTEUR, { body: '{"error":[],"result":' });
    await expect(krakenSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('malformed'));
    server.answer(COINBASE_USDTEUR, { body: { data: { amount: 0.9246, currency: 'EUR' } } });
    await expect(coinbaseSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('malformed'));
    server.answer(ECB_PATH, { body: `${ECB_DAILY}${' '.repeat(300_000)}` });
    await expect(ecbSource(options()).quote(USDT_EUR)).rejects.toEqual(reason('malformed'));
  });

  test('a server that never answers fails as a timeout once the timeout has passed', async () => {
    server.answer(KRAKEN_USDTEUR, 'hang');
    server.answer(ECB_PATH, 'hang');
    for (const source of [krakenSource(options()), ecbSource(options())]) {
      const started = Date.now();
      await expect(source.quote(USDT_EUR)).rejects.toEqual(reason('timeout'));
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    }
  });

  test('a reset connection and a closed port are unreachable, and the error names no address', async () => {
    server.answer(COINBASE_USDTEUR, 'reset');
    const reset = coinbaseSource(options()).quote(USDT_EUR);
    await expect(reset).rejects.toEqual(reason('unreachable'));
    const closed = krakenSource(options('http://127.0.0.1:1')).quote(USDT_EUR);
    await expect(closed).rejects.toEqual(reason('unreachable'));
    const err = (await closed.catch((e: Error) => e)) as Error;
    expect(`${err.message} ${err.stack}`).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });

  test('a stale answer from a cache in front of the source is dated by its Date and Age headers', async () => {
    const old = new Date(Date.now() - 3600_000);
    server.answer(KRAKEN_USDTEUR, {
      body: krakenTicker('USDTEUR', '0.92440', '0.92450'),
      headers: { date: old.toUTCString(), age: '60' },
    });
    const q = await krakenSource(options()).quote(USDT_EUR);
    expect(Date.now() - q.asOf.getTime()).toBeGreaterThan(3600_000 + 59_000);
  });
});

describe('security', () => {
  test("a proxy's credentials in the URL become a Basic Authorization header and are kept out of errors", async () => {
    const withCredentials = server.url.replace('http://', 'http://rates-user:s3cret-proxy-pw@');
    const settings = rateSettings({
      sources: 'coinbase',
      maxAgeSeconds: 300,
      maxSpreadPercent: '1',
      timeoutMs: TIMEOUT_MS,
      cacheSeconds: 10,
      urls: { kraken: withCredentials, coinbase: withCredentials, ecb: withCredentials },
    });
    expect(settings.endpoints.coinbase.url).toBe(server.url);
    expect(JSON.stringify(settings)).not.toContain('s3cret-proxy-pw');
    server.answer(COINBASE_USDTEUR, { status: 500, body: 'no' });
    const source = coinbaseSource({ ...options(), endpoint: settings.endpoints.coinbase });
    const err = (await source.quote(USDT_EUR).catch((e: Error) => e)) as Error;
    expect(`${err.message} ${err.stack}`).not.toMatch(/s3cret|rates-user/);
    const sent = server.requests.at(-1)?.headers.authorization;
    expect(sent).toBe(`Basic ${Buffer.from('rates-user:s3cret-proxy-pw').toString('base64')}`);
  });
});
