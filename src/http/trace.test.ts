import { Writable } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { freshDatabase } from '../../test/database.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { memoryStore } from './rate-limit.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = (id: string, version = '00') => `${version}-${id}-00f067aa0ba902b7-01`;
const TRACE_ID = /^[0-9a-f]{32}$/;

function traceOf(res: LightMyRequestResponse): string {
  const header = res.headers['x-trace-id'];
  expect(header).toMatch(TRACE_ID);
  expect(res.json().trace_id).toBe(header);
  return header as string;
}

let t: TestApp;
let m: Merchant;
let limited: Merchant;
beforeAll(async () => {
  // One request per project per hour: the second call of a project is the 429 we need.
  t = await startTestApp({ env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '3600' } });
  m = await createMerchant(t.app);
  limited = await createMerchant(t.app);
});
afterAll(() => t.close());

describe('traceparent', () => {
  test('a valid traceparent gives the request its trace-id', async () => {
    const res = await t.app.inject({ url: '/v1/health', headers: { traceparent: traceparent(TRACE) } });
    expect(traceOf(res)).toBe(TRACE);
  });

  test.each([
    ['version ff', traceparent(TRACE, 'ff')],
    ['an all-zero trace-id', traceparent('0'.repeat(32))],
    ['a trace-id one character short', traceparent(TRACE.slice(1))],
    ['uppercase hex', traceparent(TRACE.toUpperCase())],
    ['garbage', 'hello'],
  ])('a traceparent with %s is ignored and a fresh trace-id is used', async (_, header) => {
    const res = await t.app.inject({ url: '/v1/health', headers: { traceparent: header } });
    const id = traceOf(res);
    expect(id).not.toBe(TRACE);
    expect(id).not.toBe('0'.repeat(32));
  });
});

describe('X-Trace-Id equals the body trace_id on every kind of answer', () => {
  const cases: Array<[number, () => Promise<LightMyRequestResponse>]> = [
    [200, () => t.app.inject({ url: '/v1/health' })],
    [404, () => t.app.inject({ url: '/v1/nowhere' })],
    [405, () => t.app.inject({ method: 'DELETE', url: '/v1/health' })],
    [422, () => t.app.inject({ method: 'POST', url: '/v1/merchant/invoices', headers: m.auth, payload: {} })],
    [
      429,
      async () => {
        await t.app.inject({ url: '/v1/merchant/me', headers: limited.auth });
        return t.app.inject({ url: '/v1/merchant/me', headers: limited.auth });
      },
    ],
  ];
  test.each(cases)('%i', async (status, send) => {
    const res = await send();
    expect(res.statusCode).toBe(status);
    traceOf(res);
  });
});

describe('log lines', () => {
  test('every log line written during a request carries its trace_id', async () => {
    const before = t.logs.length;
    await t.app.inject({ url: '/v1/merchant/me', headers: { ...m.auth, traceparent: traceparent(TRACE) } });
    const lines = t.logs.slice(before);
    // The request's one line at least (http/request-log.ts).
    expect(lines.map((l) => l.msg)).toContain('request completed');
    for (const line of lines) expect(line.trace_id).toBe(TRACE);
  });
});

describe('an unexpected error', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;
  let drop: () => Promise<void>;
  const lines: string[] = [];

  beforeAll(async () => {
    const fresh = await freshDatabase();
    database = await fresh.open();
    drop = fresh.drop;
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const config = loadConfig({ DATABASE_URL: fresh.url });
    app = await buildApp({ config, database, limiter: memoryStore(), logger: { level: 'info', stream } });
    app.get('/v1/test-only/boom', async () => {
      throw new Error('internal detail: connection string postgres://user:pw@db');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await drop();
  });

  test('is a bare 500 whose trace_id is in the header, the body and every log line', async () => {
    const before = lines.length;
    const res = await app.inject({ url: '/v1/test-only/boom', headers: { traceparent: traceparent(TRACE) } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      message: expect.any(String),
      error: { code: 'INTERNAL_SERVER_ERROR', details: {} },
      trace_id: TRACE,
    });
    expect(res.headers['x-trace-id']).toBe(TRACE);
    expect(res.body).not.toContain('internal detail');
    expect(res.body).not.toMatch(/\bat .*\.ts:\d+/);
    const logged = lines.slice(before).map((l) => JSON.parse(l));
    // The stack goes to the log, where the operator finds it by the trace_id the caller quotes.
    expect(logged.find((l) => l.level === 50)?.err?.message).toContain('internal detail');
    // The error with its stack, and the request's line.
    expect(logged.map((l) => l.msg)).toContain('request completed');
    expect(logged.length).toBeGreaterThanOrEqual(2);
    for (const line of logged) expect(line.trace_id).toBe(TRACE);
  });
});
