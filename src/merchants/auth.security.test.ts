import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { createLink } from '../../test/links.js';

type Route = { method: string; url: string };

/**
 * Who may call each part of the app, by path prefix. The suites below run over the app's own route
 * table (app.routeTable), so a new route is covered the moment it is registered; a route under no
 * prefix here fails the last test until someone decides who may call it.
 */
const MERCHANT = '/v1/merchant/';
const OPERATOR = '/v1/admin/';
const PUBLIC = ['/v1/health', '/v1/openapi.json', '/docs', '/pay', '/refund', '/l/'];
/** The merchant dashboard: its own session cookie (src/dashboard/guard.ts), tested below. */
const DASHBOARD = '/dashboard';

const routesUnder = (app: FastifyInstance, prefix: string) =>
  app.routeTable.filter((r) => r.url.startsWith(prefix) && r.method !== 'HEAD');

/** A concrete URL for a route: every path parameter gets a value of the right shape. */
const urlOf = (route: Route, ids: Record<string, string>) =>
  route.url.replace(/:([a-z_]+)/g, (_, name: string) => ids[name] ?? `${name}_x`).replace('*', 'x');

type Keys = Record<'active' | 'revoked' | 'account' | 'project' | 'revokedAccount' | 'both', string>;

const KEY_BODY = 'a'.repeat(40);

/** Contract §3, in its order; the last two rows are its precedence rules. */
const FAILURES: Array<{
  name: string;
  header: (k: Keys) => string | undefined;
  status: number;
  code: string;
}> = [
  { name: 'header absent', header: () => undefined, status: 401, code: 'API_KEY_REQUIRED' },
  { name: 'header blank', header: () => '   ', status: 401, code: 'API_KEY_REQUIRED' },
  { name: 'not Bearer', header: (k) => `Basic ${k.active}`, status: 401, code: 'API_KEY_INVALID_FORMAT' },
  { name: '"Bearer" alone', header: () => 'Bearer', status: 401, code: 'API_KEY_INVALID_FORMAT' },
  {
    name: 'wrong prefix',
    header: () => `Bearer svc_public_${KEY_BODY}`,
    status: 401,
    code: 'API_KEY_INVALID_FORMAT',
  },
  {
    name: 'too short',
    header: () => `Bearer svc_secret_${'a'.repeat(31)}`,
    status: 401,
    code: 'API_KEY_INVALID_FORMAT',
  },
  {
    name: 'bad characters',
    header: () => `Bearer svc_secret_${KEY_BODY}-é`,
    status: 401,
    code: 'API_KEY_INVALID_FORMAT',
  },
  {
    name: 'unknown well-formed key',
    header: () => `Bearer svc_secret_${KEY_BODY}`,
    status: 401,
    code: 'API_KEY_INVALID',
  },
  { name: 'revoked key', header: (k) => `Bearer ${k.revoked}`, status: 401, code: 'API_KEY_REVOKED' },
  { name: 'account inactive', header: (k) => `Bearer ${k.account}`, status: 403, code: 'ACCOUNT_NOT_ACTIVE' },
  { name: 'project inactive', header: (k) => `Bearer ${k.project}`, status: 403, code: 'PROJECT_NOT_ACTIVE' },
  {
    name: 'revoked key of an inactive account',
    header: (k) => `Bearer ${k.revokedAccount}`,
    status: 401,
    code: 'API_KEY_REVOKED',
  },
  {
    name: 'inactive account and inactive project',
    header: (k) => `Bearer ${k.both}`,
    status: 403,
    code: 'ACCOUNT_NOT_ACTIVE',
  },
];

function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body).toEqual({
    success: false,
    message: expect.any(String),
    error: { code, details: {} },
    trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
  });
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['x-trace-id']).toBe(body.trace_id);
  if (status === 401) expect(res.headers['www-authenticate']).toBe('Bearer');
}

let t: TestApp;
let keys: Keys;
let invoiceId: string;
let linkId: string;

async function merchantIn(state: { revoked?: boolean; account?: boolean; project?: boolean }) {
  const m: Merchant = await createMerchant(t.app);
  if (state.revoked) await admin(t.app, 'POST', `/v1/admin/api-keys/${m.keyId}/revoke`);
  if (state.account) await admin(t.app, 'PATCH', `/v1/admin/accounts/${m.accountId}`, { status: 'inactive' });
  if (state.project) await admin(t.app, 'PATCH', `/v1/admin/projects/${m.projectId}`, { status: 'inactive' });
  return m;
}

beforeAll(async () => {
  t = await startTestApp();
  const active = await merchantIn({});
  invoiceId = (await createInvoice(t.app, active)).json().data.id;
  linkId = (await createLink(t.app, active)).id;
  keys = {
    active: active.secret,
    revoked: (await merchantIn({ revoked: true })).secret,
    account: (await merchantIn({ account: true })).secret,
    project: (await merchantIn({ project: true })).secret,
    revokedAccount: (await merchantIn({ revoked: true, account: true })).secret,
    both: (await merchantIn({ account: true, project: true })).secret,
  };
});
afterAll(() => t.close());

function send(route: Route, authorization: string | undefined, app = t.app) {
  const hasBody = ['POST', 'PATCH', 'PUT'].includes(route.method);
  return app.inject({
    method: route.method as 'GET',
    url: urlOf(route, { invoice: invoiceId, id: invoiceId, link: linkId }),
    headers: authorization === undefined ? {} : { authorization },
    ...(hasBody ? { payload: {} } : {}),
  });
}

const AUTH_CODES = FAILURES.map((f) => f.code).concat('RATE_LIMITED');

describe('every merchant route refuses every authentication failure', () => {
  test('the app has merchant routes (the table is not empty)', () => {
    expect(routesUnder(t.app, MERCHANT).length).toBeGreaterThanOrEqual(4);
  });

  test.each(FAILURES)('$name → $code, on every route under /v1/merchant', async (failure) => {
    for (const route of routesUnder(t.app, MERCHANT)) {
      const res = await send(route, failure.header(keys));
      expect({ route, status: res.statusCode }).toEqual({ route, status: failure.status });
      expectError(res, failure.status, failure.code);
    }
  });

  test('the active key gets past authentication on every route (the suite is not vacuous)', async () => {
    for (const route of routesUnder(t.app, MERCHANT)) {
      const res = await send(route, `Bearer ${keys.active}`);
      expect({ route, code: res.json().error?.code }).not.toEqual({
        route,
        code: expect.toBeOneOf(AUTH_CODES),
      });
    }
  });
});

test('every route is merchant, operator, dashboard or public: none is left undecided', () => {
  const undecided = t.app.routeTable.filter(
    (r) =>
      !r.url.startsWith(MERCHANT) &&
      !r.url.startsWith(OPERATOR) &&
      !r.url.startsWith(DASHBOARD) &&
      !PUBLIC.some((p) => r.url.startsWith(p)),
  );
  expect(undecided).toEqual([]);
});

test('every dashboard route but sign-in, invites and assets needs a session', async () => {
  const open = /^\/dashboard\/(sign-in|invite\/|assets\/)/;
  const guarded = routesUnder(t.app, DASHBOARD).filter((r) => !open.test(r.url) && !r.url.includes('*'));
  expect(guarded.length).toBeGreaterThan(20);
  for (const route of guarded) {
    const url = route.url.replace(
      /:([a-z]+)/g,
      (_, name: string) => `${name === 'event' ? 'evt' : 'x'}_000000000000000000000000`,
    );
    const res = await t.app.inject({
      method: route.method as 'GET',
      url,
      payload: route.method === 'POST' ? {} : undefined,
    });
    if (route.url.startsWith('/dashboard/api/')) {
      expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
      expectError(res, 401, 'API_KEY_REQUIRED');
    } else if (route.method === 'GET') {
      expect({ url, status: res.statusCode, location: res.headers.location }).toEqual({
        url,
        status: 303,
        location: '/dashboard/sign-in',
      });
    } else {
      expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
    }
  }
});

describe('order of checks', () => {
  test('authentication comes before validation: a bad body without a key is 401', async () => {
    const bad = [{ amount: 10, extra: true }, 'not json'];
    for (const payload of bad) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/merchant/invoices',
        headers: { 'content-type': 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
      expectError(res, 401, 'API_KEY_REQUIRED');
    }
    const query = await t.app.inject({ url: '/v1/merchant/invoices?limit=0&bogus=1' });
    expectError(query, 401, 'API_KEY_REQUIRED');
  });

  test('routing comes before authentication: 404 and 405 without a key', async () => {
    expect((await t.app.inject({ url: '/v1/merchant/nothing-here' })).json().error.code).toBe('NOT_FOUND');
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/v1/merchant/invoices' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.json().error.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrongMethod.headers['www-authenticate']).toBeUndefined();
  });
});

describe('every operator route refuses callers without the operator token', () => {
  test('the app has operator routes, sandbox and webhook ones among them', () => {
    const urls = routesUnder(t.app, OPERATOR).map((r) => r.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/v1/admin/accounts',
        '/v1/admin/invoices/:id/simulate-payment',
        '/v1/admin/projects/:id/webhook-endpoints',
      ]),
    );
  });

  test('no token → API_KEY_REQUIRED; a wrong token or a merchant key → API_KEY_INVALID, on every route', async () => {
    for (const route of routesUnder(t.app, OPERATOR)) {
      expectError(await send(route, undefined), 401, 'API_KEY_REQUIRED');
      expectError(await send(route, `Bearer ${ADMIN_TOKEN}x`), 401, 'API_KEY_INVALID');
      expectError(await send(route, `Bearer ${keys.active}`), 401, 'API_KEY_INVALID');
    }
  });

  test('the operator token gets past the guard on every route (the suite is not vacuous)', async () => {
    for (const route of routesUnder(t.app, OPERATOR)) {
      const res = await send(route, `Bearer ${ADMIN_TOKEN}`);
      expect({ route, code: res.json().error?.code }).not.toEqual({
        route,
        code: expect.toBeOneOf(AUTH_CODES),
      });
    }
  });
});

describe('with PAYDESK_ADMIN_TOKEN unset', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ env: { PAYDESK_ADMIN_TOKEN: '' } });
  });
  afterAll(() => off.close());

  test('every operator route is 404 NOT_FOUND, with or without a token', async () => {
    for (const route of routesUnder(off.app, OPERATOR)) {
      for (const authorization of [undefined, `Bearer ${ADMIN_TOKEN}`]) {
        expectError(await send(route, authorization, off.app), 404, 'NOT_FOUND');
      }
    }
  });

  test('a wrong method on an admin path is 404 too: no 405 reveals the disabled API', async () => {
    const res = await off.app.inject({ method: 'GET', url: '/v1/admin/accounts' });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.headers.allow).toBeUndefined();
  });
});
