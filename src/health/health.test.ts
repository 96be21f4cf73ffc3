import { readFileSync } from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, TEST_REDIS_URL, type TestApp } from '../../test/app.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { memoryStore } from '../http/rate-limit.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('with the database up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  test('GET /v1/health answers 200 ok with the version, without any key', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-key' }]) {
      const res = await t.app.inject({ url: '/v1/health', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toEqual({
        success: true,
        message: expect.any(String),
        // With REDIS_URL (the PostgreSQL + Redis run), health also says whether Redis answers.
        data: {
          status: 'ok',
          version,
          database: 'ok',
          ...(TEST_REDIS_URL ? { redis: 'ok' } : {}),
          // No invoice has needed a rate yet: no source has been asked.
          rate_sources: ['kraken', 'coinbase', 'ecb'].map((source) => ({
            source,
            status: 'untried',
            checked_at: null,
            reason: null,
          })),
          // Sandbox is always watched; the built-in networks have no RPC URL here (contract §21).
          networks: expect.arrayContaining([
            { network: 'sandbox', status: 'ok', reason: null, since: null, forwarders: null },
            {
              network: 'ethereum',
              status: 'unwatched',
              reason: 'no RPC URL is configured (PAYDESK_RPC_ETHEREUM)',
              since: null,
              forwarders: null,
            },
          ]),
        },
        trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
    }
  });
});

describe('with the database unreachable', () => {
  const url = 'postgres://127.0.0.1:1/none'; // nothing listens on port 1: every query fails
  let app: FastifyInstance;
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase(url);
    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' });
    app = await buildApp({ config, database, limiter: memoryStore(), logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  function expectUnavailable(res: LightMyRequestResponse) {
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expect(res.json()).toEqual({
      success: false,
      message: expect.any(String),
      error: { code: 'INTERNAL_SERVER_ERROR', details: {} },
      trace_id: res.headers['x-trace-id'],
    });
    expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  }

  test('GET /v1/health answers 503 INTERNAL_SERVER_ERROR with Retry-After', async () => {
    expectUnavailable(await get('/v1/health'));
  });

  test('a merchant call answers 503 too, not a bare 500', async () => {
    expectUnavailable(await get('/v1/merchant/me', `Bearer svc_secret_${'a'.repeat(40)}`));
  });

  function get(path: string, authorization?: string) {
    return app.inject({ url: path, headers: authorization ? { authorization } : {} });
  }
});
