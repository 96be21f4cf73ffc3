import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

/**
 * Whatever bytes arrive, in any path, query or body field of any route, the answer is the contract's
 * envelope and never a 500. Built from the app's own route table, so a new route is covered at once.
 */
let t: TestApp;
let m: Merchant;
let invoiceId: string;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
  invoiceId = (await createInvoice(t.app, m)).json().data.id;
});
afterAll(() => t.close());

const RUNS = 20;
/**
 * Routes whose answers are not the API's envelope: pages for people (the payment page, the refund
 * claim page, the dashboard's pages but not its /dashboard/api JSON), the API reference, static files.
 */
const NOT_JSON = /^\/(pay|refund|pos|docs|l)\b|^\/dashboard(?!\/api\/)|^\/v1\/openapi\.json/;

const routes = () =>
  t.app.routeTable.filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/docs') && !r.url.includes('*'));

function authFor(url: string): Record<string, string> {
  if (url.startsWith('/v1/admin')) return { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (url.startsWith('/v1/merchant')) return m.auth;
  return {};
}

/** Any bytes, percent-encoded, so invalid UTF-8, NUL and encoded surrogates all reach the server. */
const anyBytes = fc
  .oneof(
    fc.uint8Array({ minLength: 1, maxLength: 40 }),
    fc.constantFrom(
      ...['\0', '\xff', 'inv_\0', '\ud800', 'a'.repeat(300)].map((s) =>
        Uint8Array.from(Buffer.from(s, s === '\xff' ? 'latin1' : 'utf8')),
      ),
    ),
  )
  .map((bytes) => Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join(''));

/** Any text a JSON string can carry, lone surrogates and NUL included. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('\0', '\ud800', 'a\udc00b'),
);

function expectEnvelope(res: LightMyRequestResponse, url: string) {
  expect(res.statusCode, `${url} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
  if (NOT_JSON.test(url)) return;
  const body = res.json();
  expect(typeof body.success).toBe('boolean');
  expect(body.trace_id).toMatch(/^[0-9a-f]{32}$/);
  if (!body.success) expect(typeof body.error.code).toBe('string');
}

const withParams = (url: string, value: string) => url.replace(/:[a-z_]+/g, value);

describe('hostile input never makes a 500', () => {
  test('in every path parameter of every route', async () => {
    for (const route of routes().filter((r) => r.url.includes('/:'))) {
      await fc.assert(
        fc.asyncProperty(anyBytes, async (value) => {
          const url = withParams(route.url, value);
          const res = await t.app.inject({ method: route.method as 'GET', url, headers: authFor(route.url) });
          expectEnvelope(res, url);
        }),
        { numRuns: RUNS },
      );
    }
  });

  test('in the query string of every route, known parameters and unknown', async () => {
    const names = fc.constantFrom('status', 'order_id', 'limit', 'page', 'x', '%00', '__proto__');
    for (const route of routes()) {
      await fc.assert(
        fc.asyncProperty(names, anyBytes, async (name, value) => {
          const url = `${withParams(route.url, invoiceId)}?${name}=${value}`;
          const res = await t.app.inject({ method: route.method as 'GET', url, headers: authFor(route.url) });
          expectEnvelope(res, url);
        }),
        { numRuns: RUNS },
      );
    }
  });

  test('in every body field of every route that takes a body, and in raw bytes', async () => {
    const fields = fc.constantFrom('amount', 'order_id', 'metadata', 'name', 'url', 'events', 'status', 'x');
    const value = fc.oneof(anyText, fc.dictionary(anyText, anyText, { maxKeys: 3 }), fc.jsonValue());
    const body = fc.oneof(
      fc.dictionary(fields, value, { maxKeys: 4 }).map((o) => JSON.stringify(o)),
      fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b)),
    );
    for (const route of routes().filter((r) => ['POST', 'PATCH', 'PUT', 'DELETE'].includes(r.method))) {
      await fc.assert(
        fc.asyncProperty(body, async (payload) => {
          const url = withParams(route.url, invoiceId);
          const headers = { ...authFor(route.url), 'content-type': 'application/json' };
          const res = await t.app.inject({ method: route.method as 'POST', url, headers, payload });
          expectEnvelope(res, url);
        }),
        { numRuns: RUNS },
      );
    }
  });
});

describe('every 404 for an invoice id is alike, whatever the id is made of', () => {
  test('unknown, malformed, undecodable, NUL, surrogate, over-long: one body', async () => {
    const shape = (res: LightMyRequestResponse) => {
      const { trace_id: _, ...rest } = res.json();
      return { status: res.statusCode, ...rest };
    };
    const unknown = shape(
      await t.app.inject({ url: '/v1/merchant/invoices/inv_000000000000000000000000', headers: m.auth }),
    );
    expect(unknown).toEqual({
      status: 404,
      success: false,
      message: 'No invoice with this id',
      error: { code: 'NOT_FOUND', details: {} },
    });
    await fc.assert(
      fc.asyncProperty(anyBytes, async (value) => {
        const res = await t.app.inject({ url: `/v1/merchant/invoices/${value}`, headers: m.auth });
        expect(shape(res)).toEqual(unknown);
      }),
      { numRuns: 200 },
    );
  });

  test('in bodies nested deep or spread wide: VALIDATION_ERROR too_deep past 32 levels, never a 500', async () => {
    // Deep: arrays and objects mixed, from just past the limit to far past the point where a recursive
    // walk would exhaust the stack (about 7,000 levels did, in 42 KB). Wide: thousands of shallow keys.
    const deep = fc
      .tuple(fc.integer({ min: 33, max: 30_000 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }))
      .map(([depth, kinds]) => {
        const opens = Array.from({ length: depth }, (_, i) => (kinds[i % kinds.length] ? '{"a":' : '['));
        const closes = opens.map((o) => (o === '[' ? ']' : '}')).reverse();
        return { payload: `${opens.join('')}1${closes.join('')}`, deep: true };
      });
    const wide = fc.integer({ min: 1_000, max: 5_000 }).map((n) => ({
      payload: JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, [i, { i }]]))),
      deep: false,
    }));
    for (const route of routes()) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(deep, wide), async ({ payload, deep: isDeep }) => {
          const url = withParams(route.url, invoiceId);
          const headers = { ...authFor(route.url), 'content-type': 'application/json' };
          const res = await t.app.inject({ method: route.method as 'POST', url, headers, payload });
          expectEnvelope(res, url);
          if (isDeep && res.statusCode === 400 && !NOT_JSON.test(url)) {
            const rules = res.json().error.details.errors?.map((e: { rule: string }) => e.rule);
            expect(rules).toContain('too_deep');
          }
        }),
        { numRuns: 4 },
      );
    }
  });
});
