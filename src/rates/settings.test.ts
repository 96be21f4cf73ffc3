import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

describe('PAYDESK_RATE_* configuration', () => {
  test('defaults: kraken, coinbase, ecb; 300 s; 1 %; a 10 % jump; 2 s per source; a 10 s cache', () => {
    const { rates } = loadConfig({});
    expect(rates).toMatchObject({
      sources: ['kraken', 'coinbase', 'ecb'],
      maxAgeMs: 300_000,
      maxSpreadPercent: '1',
      maxJumpPercent: '10',
      timeoutMs: 2000,
      cacheMs: 10_000,
    });
    expect(rates.endpoints.ecb.url).toBe('https://www.ecb.europa.eu/stats/eurofxref');
  });

  test('an order of the operator, spaces allowed', () => {
    expect(loadConfig({ PAYDESK_RATE_SOURCES: 'ecb, kraken' }).rates.sources).toEqual(['ecb', 'kraken']);
  });

  test.each([
    ['PAYDESK_RATE_SOURCES', 'kraken,binance'],
    ['PAYDESK_RATE_SOURCES', 'kraken,kraken'],
    ['PAYDESK_RATE_SOURCES', 'Kraken;ecb'],
    ['PAYDESK_RATE_MAX_AGE_SECONDS', '0'],
    ['PAYDESK_RATE_MAX_AGE_SECONDS', 'soon'],
    ['PAYDESK_RATE_MAX_SPREAD_PERCENT', '-1'],
    ['PAYDESK_RATE_MAX_SPREAD_PERCENT', '1e2'],
    ['PAYDESK_RATE_MAX_SPREAD_PERCENT', '100.5'],
    ['PAYDESK_RATE_TIMEOUT_MS', '10'],
    ['PAYDESK_RATE_CACHE_SECONDS', '3601'],
    ['PAYDESK_RATE_MAX_JUMP_PERCENT', '-5'],
    ['PAYDESK_RATE_MAX_JUMP_PERCENT', '101'],
    ['PAYDESK_RATE_MAX_JUMP_PERCENT', 'ten'],
    ['PAYDESK_RATE_KRAKEN_URL', 'ftp://user:hunter2-secret@kraken.example'],
    ['PAYDESK_RATE_ECB_URL', 'https://user:hunter2-secret@[bad'],
    ['PAYDESK_RATE_COINBASE_URL', 'https://user:hunter2-secret@proxy.example/?token=hunter2-secret'],
  ])('%s=%s is a one-line startup error naming the variable, never the value', (variable, value) => {
    let error: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(variable);
    expect(message).not.toContain('hunter2');
    expect(message.split('\n')).toHaveLength(1);
  });
});

describe('no documented variable alone stops the server (contract §21)', () => {
  test('the cache defaults to the smaller of 10 s and the maximum age', () => {
    expect(loadConfig({ PAYDESK_RATE_MAX_AGE_SECONDS: '5' }).rates.cacheMs).toBe(5000);
    expect(loadConfig({ PAYDESK_RATE_MAX_AGE_SECONDS: '60' }).rates.cacheMs).toBe(10_000);
  });

  test('a cache longer than the maximum age is shortened to it, not refused', () => {
    expect(loadConfig({ PAYDESK_RATE_CACHE_SECONDS: '600' }).rates.cacheMs).toBe(300_000);
  });

  test('any documented value of one rate variable, the others left to their defaults, loads', () => {
    const one = fc.oneof(
      fc.integer({ min: 1, max: 86_400 }).map((v) => ['PAYDESK_RATE_MAX_AGE_SECONDS', String(v)]),
      fc.integer({ min: 1, max: 3600 }).map((v) => ['PAYDESK_RATE_CACHE_SECONDS', String(v)]),
      fc.integer({ min: 100, max: 60_000 }).map((v) => ['PAYDESK_RATE_TIMEOUT_MS', String(v)]),
      fc.integer({ min: 0, max: 100 }).map((v) => ['PAYDESK_RATE_MAX_JUMP_PERCENT', String(v)]),
      fc.integer({ min: 0, max: 100 }).map((v) => ['PAYDESK_RATE_MAX_SPREAD_PERCENT', String(v)]),
    );
    fc.assert(
      fc.property(one, ([variable, value]) => {
        const { rates } = loadConfig({ [variable as string]: value });
        expect(rates.cacheMs).toBeLessThanOrEqual(rates.maxAgeMs);
      }),
    );
  });
});
