import type { FastifyError, FastifyInstance, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { classifyError } from './error-handler.js';
import { ApiError } from './errors.js';
import { memoryStore } from './rate-limit.js';
import { createValidation } from './validation.js';

describe('one classifier', () => {
  const validation = createValidation([]);
  function classify(err: unknown) {
    const logged: string[] = [];
    const request = { log: { error: (_: unknown, msg: string) => logged.push(msg) } };
    const out = classifyError(err as FastifyError, request as unknown as FastifyRequest, validation);
    return { out, logged };
  }

  test('our own ApiError stands as it is, and is not logged as a failure', () => {
    const err = ApiError.notFound('No invoice with this id');
    expect(classify(err)).toEqual({ out: err, logged: [] });
  });

  test('a framework error becomes one of our codes', () => {
    const tooLarge = Object.assign(new Error('too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });
    const { out, logged } = classify(tooLarge);
    expect(out.code).toBe('VALIDATION_ERROR');
    expect(out.details.errors).toEqual([expect.objectContaining({ rule: 'too_large' })]);
    expect(logged).toEqual([]);
  });

  test('a database that cannot be reached is a logged 503 with Retry-After', () => {
    const { out, logged } = classify(
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    );
    expect(out).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', statusCode: 503 });
    expect(out.headers['Retry-After']).toBe('5');
    expect(out.message).not.toContain('ECONNREFUSED');
    expect(logged).toEqual(['database unavailable']);
  });

  test('anything else is a logged, bare 500 that says nothing about the inside', () => {
    const { out, logged } = classify(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(out).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', statusCode: 500, headers: {} });
    expect(out.message).not.toContain('undefined');
    expect(logged).toEqual(['unhandled error']);
  });
});

describe('three renderers of the same outage', () => {
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

  function expectRetryLater(res: LightMyRequestResponse, type: string) {
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['content-type']).toBe(type);
    expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  }

  test('the API answers the JSON envelope', async () => {
    const res = await app.inject({
      url: '/v1/merchant/me',
      headers: { authorization: `Bearer svc_secret_${'a'.repeat(40)}` },
    });
    expectRetryLater(res, 'application/json; charset=utf-8');
    expect(res.json().error).toEqual({ code: 'INTERNAL_SERVER_ERROR', details: {} });
  });

  test("the payment page answers its own page, in the payer's language, under its CSP", async () => {
    const res = await app.inject({
      url: `/pay/inv_${'a'.repeat(24)}`,
      headers: { 'accept-language': 'es' },
    });
    expectRetryLater(res, 'text/html; charset=utf-8');
    expect(res.headers['content-language']).toBe('es');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('<h1>');
  });

  test("the payment page's status poll answers JSON, as the API does", async () => {
    const res = await app.inject({ url: `/pay/inv_${'a'.repeat(24)}/status` });
    expectRetryLater(res, 'application/json; charset=utf-8');
  });

  test('the dashboard answers a page for people', async () => {
    const res = await app.inject({
      url: '/dashboard',
      headers: { cookie: `paydesk_session=${'a'.repeat(43)}` },
    });
    expectRetryLater(res, 'text/html; charset=utf-8');
    expect(res.body).toContain('<h1>Something went wrong</h1>');
    expect(res.body).toContain('Please try again in a moment.');
  });
});
