import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import {
  COINBASE_USDTEUR,
  coinbaseSpot,
  ECB_PATH,
  KRAKEN_USDTEUR,
  type RateSourceServer,
  rateSourceServer,
} from '../../test/rate-sources.js';
import { openRates } from '../rates/open.js';
import { attachRateBook, rateBookOf } from '../rates/registry.js';

describe('rate sources on /v1/health and in the metrics', () => {
  let t: TestApp;
  let server: RateSourceServer;
  let close: () => Promise<void>;
  beforeAll(async () => {
    server = await rateSourceServer();
    t = await startTestApp({
      env: {
        PAYDESK_RATE_KRAKEN_URL: server.url,
        PAYDESK_RATE_COINBASE_URL: server.url,
        PAYDESK_RATE_ECB_URL: server.url,
        PAYDESK_RATE_TIMEOUT_MS: '300',
      },
    });
    const rates = openRates({ settings: t.app.config.rates, db: t.app.db, log: t.app.log });
    attachRateBook(t.app.db, rates.book);
    close = rates.close;
  });
  afterAll(async () => {
    await close();
    await t.close();
    await server.close();
  });

  test('a failing source is named, health stays 200, and no source is asked for it', async () => {
    server.answer(KRAKEN_USDTEUR, 'hang');
    server.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.931') });
    server.answer(ECB_PATH, { status: 503, body: 'down' });
    const book = rateBookOf(t.app.db);
    await book?.lookup({ base: 'USDT', quote: 'EUR' });
    await book?.settled();

    const asked = server.requests.length;
    const res = await t.app.inject({ url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('ok');
    expect(res.json().data.rate_sources).toEqual([
      { source: 'kraken', status: 'failing', checked_at: expect.any(String), reason: 'timeout' },
      { source: 'coinbase', status: 'ok', checked_at: expect.any(String), reason: null },
      { source: 'ecb', status: 'failing', checked_at: expect.any(String), reason: 'http_error' },
    ]);
    expect(res.body).not.toContain(server.url);
    expect(server.requests.length).toBe(asked);

    const metrics = await t.app.inject({
      url: '/v1/admin/metrics',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(metrics.json().data.rate_source_calls).toEqual({ kraken: 1, coinbase: 1, ecb: 1 });
  });
});
