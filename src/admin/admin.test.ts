import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

function call(method: 'POST' | 'PATCH', url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/v1/admin${url}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    ...(payload ? { payload } : {}),
  });
}

async function data(res: Promise<LightMyRequestResponse>, status: number) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json().data;
}

/** The `field: rule` pairs of a 422, which must list every violation. */
async function violations(res: Promise<LightMyRequestResponse>) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(422);
  expect(r.json().error.code).toBe('VALIDATION_ERROR');
  return r.json().error.details.errors.map((e: { field: string; rule: string }) => `${e.field}: ${e.rule}`);
}

async function expectNotFound(res: Promise<LightMyRequestResponse>) {
  const r = await res;
  expect(r.statusCode).toBe(404);
  expect(r.json().error).toEqual({ code: 'NOT_FOUND', details: {} });
}

const newAccount = () => data(call('POST', '/accounts', { name: 'Acme' }), 201);
const newProject = async () =>
  data(call('POST', '/projects', { account_id: (await newAccount()).id, name: 'Shop' }), 201);

describe('accounts', () => {
  test('POST /accounts creates an active account', async () => {
    const account = await newAccount();
    expect(account).toEqual({
      id: expect.stringMatching(/^acct_[A-Za-z0-9]{22,}$/),
      name: 'Acme',
      status: 'active',
      created_at: expect.stringMatching(TIMESTAMP),
    });
  });

  test('POST /accounts refuses a missing name and unknown fields', async () => {
    expect(await violations(call('POST', '/accounts', { plan: 'gold' }))).toEqual([
      'name: required',
      'plan: unknown_field',
    ]);
    expect(await violations(call('POST', '/accounts', { name: '' }))).toEqual(['name: min_length']);
  });

  test('PATCH /accounts/{id} deactivates and reactivates; refuses a bad status; 404 for an unknown id', async () => {
    const { id } = await newAccount();
    expect((await data(call('PATCH', `/accounts/${id}`, { status: 'inactive' }), 200)).status).toBe(
      'inactive',
    );
    expect((await data(call('PATCH', `/accounts/${id}`, { status: 'active' }), 200)).status).toBe('active');
    expect(await violations(call('PATCH', `/accounts/${id}`, { status: 'paused' }))).toEqual([
      'status: enum',
    ]);
    expect(await violations(call('PATCH', `/accounts/${id}`, { status: 'active', name: 'x' }))).toEqual([
      'name: unknown_field',
    ]);
    await expectNotFound(call('PATCH', '/accounts/acct_unknown', { status: 'inactive' }));
  });
});

describe('projects', () => {
  test('POST /projects applies the defaults: USDT, sandbox, 3600 s', async () => {
    const account = await newAccount();
    const project = await data(call('POST', '/projects', { account_id: account.id, name: 'Shop' }), 201);
    expect(project).toEqual({
      id: expect.stringMatching(/^prj_[A-Za-z0-9]{22,}$/),
      account_id: account.id,
      name: 'Shop',
      status: 'active',
      livemode: false,
      currency: 'USDT',
      network: 'sandbox',
      payment_methods: [{ network: 'sandbox', currency: 'USDT' }],
      xpub: null,
      evm_xpub: null,
      tron_xpub: null,
      payout_address: null,
      solana_address: null,
      underpayment_tolerance_percent: 0,
      invoice_ttl_seconds: 3600,
      created_at: expect.stringMatching(TIMESTAMP),
    });
  });

  test('POST /projects accepts the TTL bounds 60 and 604800 and refuses what lies outside', async () => {
    const { id } = await newAccount();
    const make = (invoice_ttl_seconds: number) =>
      call('POST', '/projects', { account_id: id, name: 'S', currency: 'USDC', invoice_ttl_seconds });
    expect((await data(make(60), 201)).invoice_ttl_seconds).toBe(60);
    expect((await data(make(604_800), 201)).currency).toBe('USDC');
    expect(await violations(make(59))).toEqual(['invoice_ttl_seconds: minimum']);
    expect(await violations(make(604_801))).toEqual(['invoice_ttl_seconds: maximum']);
  });

  test('POST /projects lists every invalid field at once', async () => {
    const { id } = await newAccount();
    const body = { account_id: id, name: 'S', currency: 'eur', network: 'ethereum', color: 'red' };
    expect(await violations(call('POST', '/projects', body))).toEqual([
      'color: unknown_field',
      'currency: pattern',
    ]);
    expect(
      await violations(call('POST', '/projects', { account_id: id, name: 'S', network: 'dogechain' })),
    ).toEqual(['network: enum']);
  });

  test('POST /projects for an unknown account is a VALIDATION_ERROR on account_id', async () => {
    const body = { account_id: 'acct_unknown', name: 'S' };
    expect(await violations(call('POST', '/projects', body))).toEqual(['account_id: exists']);
  });

  test('PATCH /projects/{id} changes status, name and TTL; refuses the rest; 404 for an unknown id', async () => {
    const { id } = await newProject();
    const changed = await data(
      call('PATCH', `/projects/${id}`, { status: 'inactive', name: 'Renamed', invoice_ttl_seconds: 900 }),
      200,
    );
    expect(changed).toMatchObject({ id, status: 'inactive', name: 'Renamed', invoice_ttl_seconds: 900 });
    expect(await violations(call('PATCH', `/projects/${id}`, {}))).toEqual(['body: min_properties']);
    expect(await violations(call('PATCH', `/projects/${id}`, { color: 'red' }))).toEqual([
      'color: unknown_field',
    ]);
    expect(await violations(call('PATCH', `/projects/${id}`, { invoice_ttl_seconds: 30 }))).toEqual([
      'invoice_ttl_seconds: minimum',
    ]);
    await expectNotFound(call('PATCH', '/projects/prj_unknown', { name: 'x' }));
  });
});

describe('API keys', () => {
  test('POST /projects/{id}/api-keys returns the key and its secret, which nothing shows again', async () => {
    const project = await newProject();
    const res = await call('POST', `/projects/${project.id}/api-keys`, { name: 'server' });
    const { api_key, secret } = await data(Promise.resolve(res), 201);
    expect(secret).toMatch(/^svc_secret_[A-Za-z0-9]{32,}$/);
    expect(api_key).toEqual({
      id: expect.stringMatching(/^key_[A-Za-z0-9]{22,}$/),
      name: 'server',
      last4: secret.slice(-4),
      status: 'active',
      created_at: expect.stringMatching(TIMESTAMP),
      last_used_at: null,
    });
    const later = [
      await call('PATCH', `/projects/${project.id}`, { name: 'Again' }),
      await t.app.inject({ url: '/v1/merchant/me', headers: { authorization: `Bearer ${secret}` } }),
      await call('POST', `/api-keys/${api_key.id}/revoke`),
    ];
    for (const r of later) {
      expect(r.statusCode).toBe(200);
      expect(r.body).not.toContain(secret.slice('svc_secret_'.length));
    }
  });

  test('POST /projects/{id}/api-keys takes no body, refuses unknown fields, 404 for an unknown project', async () => {
    const project = await newProject();
    expect((await data(call('POST', `/projects/${project.id}/api-keys`), 201)).api_key.name).toBe('');
    expect(await violations(call('POST', `/projects/${project.id}/api-keys`, { scope: 'all' }))).toEqual([
      'scope: unknown_field',
    ]);
    await expectNotFound(call('POST', '/projects/prj_unknown/api-keys', {}));
  });

  test('POST /api-keys/{id}/revoke revokes, again harmlessly; 404 for an unknown key', async () => {
    const project = await newProject();
    const { api_key } = await data(call('POST', `/projects/${project.id}/api-keys`, {}), 201);
    const revoked = await data(call('POST', `/api-keys/${api_key.id}/revoke`), 200);
    expect(revoked).toEqual({ ...api_key, status: 'revoked' });
    expect((await data(call('POST', `/api-keys/${api_key.id}/revoke`), 200)).status).toBe('revoked');
    await expectNotFound(call('POST', '/api-keys/key_unknown/revoke'));
  });
});
