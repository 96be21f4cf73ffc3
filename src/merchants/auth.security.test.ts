import type { LightMyRequestResponse } from 'fastify';
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

type Route = { method: 'GET' | 'POST' | 'PATCH'; url: string; payload?: object };

/** Every protected merchant route: a new route is one more line here. `{id}` is a real invoice. */
const ROUTES: Route[] = [
  { method: 'GET', url: '/v1/merchant/me' },
  { method: 'POST', url: '/v1/merchant/invoices', payload: { amount: '10.00' } },
  { method: 'GET', url: '/v1/merchant/invoices' },
  { method: 'GET', url: '/v1/merchant/invoices/{id}' },
];

const ADMIN_ROUTES: Route[] = [
  { method: 'POST', url: '/v1/admin/accounts', payload: { name: 'x' } },
  { method: 'PATCH', url: '/v1/admin/accounts/acct_x', payload: { status: 'inactive' } },
  { method: 'POST', url: '/v1/admin/projects', payload: { account_id: 'acct_x', name: 'x' } },
  { method: 'PATCH', url: '/v1/admin/projects/prj_x', payload: { name: 'x' } },
  { method: 'POST', url: '/v1/admin/projects/prj_x/api-keys', payload: {} },
  { method: 'POST', url: '/v1/admin/api-keys/key_x/revoke' },
];
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
  return app.inject({
    method: route.method,
    url: route.url.replace('{id}', invoiceId),
    headers: authorization === undefined ? {} : { authorization },
    ...(route.payload ? { payload: route.payload } : {}),
  });
}

describe('every protected merchant route refuses every authentication failure', () => {
  const cases = ROUTES.flatMap((route) => FAILURES.map((failure) => ({ route, failure })));
  test.each(cases)('$route.method $route.url, $failure.name → $failure.code', async ({ route, failure }) => {
    expectError(await send(route, failure.header(keys)), failure.status, failure.code);
  });

  test.each(ROUTES)('$method $url succeeds with the active key (the table is not vacuous)', async (route) => {
    const res = await send(route, `Bearer ${keys.active}`);
    expect(res.statusCode).toBeLessThan(300);
  });
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

describe('the admin API refuses callers without the operator token', () => {
  test.each(ADMIN_ROUTES)('$method $url: no token → API_KEY_REQUIRED', async (route) => {
    expectError(await send(route, undefined), 401, 'API_KEY_REQUIRED');
  });

  test.each(ADMIN_ROUTES)('$method $url: wrong token or a merchant key → API_KEY_INVALID', async (route) => {
    expectError(await send(route, `Bearer ${ADMIN_TOKEN}x`), 401, 'API_KEY_INVALID');
    expectError(await send(route, `Bearer ${keys.active}`), 401, 'API_KEY_INVALID');
  });
});

describe('with PAYDESK_ADMIN_TOKEN unset', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ env: { PAYDESK_ADMIN_TOKEN: '' } });
  });
  afterAll(() => off.close());

  test.each(ADMIN_ROUTES)('$method $url is 404 NOT_FOUND, with or without a token', async (route) => {
    for (const authorization of [undefined, `Bearer ${ADMIN_TOKEN}`]) {
      expectError(await send(route, authorization, off.app), 404, 'NOT_FOUND');
    }
  });

  test('a wrong method on an admin path is 404 too: no 405 reveals the disabled API', async () => {
    const res = await off.app.inject({ method: 'GET', url: '/v1/admin/accounts' });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.headers.allow).toBeUndefined();
  });
});
