import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

describe('PAYDESK_RATE_* configuration', () => {
  test('defaults: kraken, coinbase, ecb; 300 s; 1 %; 2 s per source; a 10 s cache', () => {
    const { rates } = loadConfig({});
    expect(rates).toMatchObject({
      sources: ['kraken', 'coinbase', 'ecb'],
      maxAgeMs: 300_000,
      maxSpreadPercent: '1',
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
    ['PAYDESK_RATE_CACHE_SECONDS', '301'],
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
