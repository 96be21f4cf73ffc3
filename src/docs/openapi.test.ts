import { Ajv2020, type AnySchema, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { PNG } from 'pngjs';
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
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { COLLECTING_NETWORK, collectingEnv, confirmedDeposit, PAYOUT } from '../../test/collecting.js';
import { inviteAndAccept, signIn } from '../../test/dashboard.js';
import { watchedBuiltins } from '../../test/watched-node.js';

type Json = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  op: Json;
}

/** Every operation of contract §4 and §8; the document must hold each under this operationId. */
const CONTRACT_OPERATIONS = {
  getHealth: 'GET /v1/health',
  getMe: 'GET /v1/merchant/me',
  createInvoice: 'POST /v1/merchant/invoices',
  listInvoices: 'GET /v1/merchant/invoices',
  getInvoice: 'GET /v1/merchant/invoices/{invoice}',
  adminCreateAccount: 'POST /v1/admin/accounts',
  adminUpdateAccount: 'PATCH /v1/admin/accounts/{id}',
  adminCreateProject: 'POST /v1/admin/projects',
  adminUpdateProject: 'PATCH /v1/admin/projects/{id}',
  adminCreateApiKey: 'POST /v1/admin/projects/{id}/api-keys',
  adminRevokeApiKey: 'POST /v1/admin/api-keys/{id}/revoke',
};

const SCHEMAS = 'https://paydesk.test/openapi/components';

/**
 * The document's schemas are open (new fields must not break strict clients), so for the test every
 * object is closed at validation time with `unevaluatedProperties: false`: a field a handler returns
 * but the document does not declare fails, as does a missing required one. Refs to components are
 * pointed at one registered schema holding them all.
 */
function closed(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      out.$ref = `${SCHEMAS}#/$defs/${value.slice('#/components/schemas/'.length)}`;
    } else if (['properties', 'patternProperties', '$defs', 'dependentSchemas'].includes(key)) {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, closed(v)]));
    } else if (['examples', 'enum', 'const', 'default', 'required'].includes(key)) {
      out[key] = value;
    } else {
      out[key] = closed(value);
    }
  }
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject && out.additionalProperties === undefined && out.unevaluatedProperties === undefined) {
    out.unevaluatedProperties = false;
  }
  return out;
}

function newAjv(doc: Json): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    formats: {
      // Contract §1: RFC 3339, UTC, milliseconds, Z.
      'date-time': (v: string) =>
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v) && !Number.isNaN(Date.parse(v)),
      uri: (v: string) => URL.canParse(v),
    },
  });
  ajv.addSchema({ $id: SCHEMAS, $defs: closed(doc.components.schemas) });
  return ajv;
}

/** Validates real responses against what the document declares for their operation and status. */
class Conformance {
  readonly operations = new Map<string, Operation>();
  readonly exercised = new Map<string, Set<number>>();
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(readonly doc: Json) {
    this.ajv = newAjv(doc);
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        this.operations.set(op.operationId, { method: method.toUpperCase(), path, op });
      }
    }
  }

  operation(operationId: string): Operation {
    const found = this.operations.get(operationId);
    if (!found) throw new Error(`the document has no operation ${operationId}`);
    return found;
  }

  private validator(schema: AnySchema): ValidateFunction {
    let v = this.compiled.get(schema);
    if (!v) {
      v = this.ajv.compile(closed(schema));
      this.compiled.set(schema, v);
    }
    return v;
  }

  /** Fails unless the response's status, Content-Type, body and documented headers match the document. */
  check(operationId: string, res: LightMyRequestResponse): void {
    const { op } = this.operation(operationId);
    const where = `${operationId} → ${res.statusCode}`;
    const declared = op.responses[String(res.statusCode)];
    expect(declared, `${where} is not declared; body: ${res.body}`).toBeDefined();
    const media = Object.keys(declared.content ?? {});
    expect(media, where).toEqual(['application/json']);
    expect(res.headers['content-type'], where).toBe('application/json; charset=utf-8');
    const validate = this.validator(declared.content['application/json'].schema);
    if (!validate(res.json())) {
      throw new Error(
        `${where}: the body does not match the document:\n${this.ajv.errorsText(validate.errors, { separator: '\n' })}\n${res.body}`,
      );
    }
    for (const [name, header] of Object.entries((declared.headers ?? {}) as Json)) {
      const raw = res.headers[name.toLowerCase()];
      if (raw === undefined) continue;
      const value = header.schema.type === 'integer' && /^\d+$/.test(String(raw)) ? Number(raw) : raw;
      const ok = this.validator(header.schema)(value);
      expect(ok, `${where}: header ${name}: ${String(raw)}`).toBe(true);
    }
    const seen = this.exercised.get(operationId) ?? new Set<number>();
    seen.add(res.statusCode);
    this.exercised.set(operationId, seen);
  }
}

interface Call {
  auth?: Record<string, string>;
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Another method on the operation's path (for 405). */
  method?: string;
  remoteAddress?: string;
}

let c: Conformance;

/** Calls an operation as the document describes it, checks the status, then checks the response against the document. */
async function call(app: FastifyInstance, operationId: string, status: number, req: Call = {}) {
  const { method, path } = c.operation(operationId);
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = req.params?.[name];
    if (value === undefined) throw new Error(`${operationId}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const res = await app.inject({
    method: (req.method ?? method) as 'GET',
    url: req.query ? `${url}?${req.query}` : url,
    headers: {
      ...(typeof req.body === 'string' ? { 'content-type': 'application/json' } : {}),
      ...req.auth,
      ...req.headers,
    },
    ...(req.body === undefined ? {} : { payload: req.body as string }),
    ...(req.remoteAddress ? { remoteAddress: req.remoteAddress } : {}),
  });
  expect(res.statusCode, `${operationId}: ${res.body}`).toBe(status);
  c.check(operationId, res);
  return res;
}

/** (METHOD path) pairs of the app's routes, read from Fastify's route tree. */
function registeredRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│├└─\s]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m?.[1] || !m[2]) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack[depth] = m[2];
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of m[3]?.split(', ') ?? []) routes.push(`${method} ${path}`);
  }
  return routes;
}

const adminAuth = { authorization: `Bearer ${ADMIN_TOKEN}` };

let t: TestApp;
let doc: Json;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true', ...watchedBuiltins() } });
  const res = await t.app.inject({ url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  c = new Conformance(doc);
  m = await createMerchant(t.app);
});
afterAll(() => t?.close());

describe('GET /v1/openapi.json', () => {
  test('is an OpenAPI 3.1 document with every operation of the contract under its operationId', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const documented = Object.fromEntries(
      [...c.operations].map(([id, { method, path }]) => [id, `${method} ${path}`]),
    );
    expect(documented).toMatchObject(CONTRACT_OPERATIONS);
  });

  test('documents every route the app serves under /v1, and nothing it does not serve', () => {
    const served = registeredRoutes(t.app).filter(
      (r) => / \/(v1|dashboard\/api)\//.test(r) && r !== 'GET /v1/openapi.json',
    );
    expect(served).toContain('GET /v1/merchant/invoices/{invoice}');
    const documented = [...c.operations.values()].map(({ method, path }) => `${method} ${path}`);
    expect(documented.sort()).toEqual(served.sort());
  });

  test('names its shared schemas, and gives each operation a summary, a tag and its security', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['ErrorEnvelope', 'Invoice', 'Account', 'Project', 'ApiKey']),
    );
    for (const name of Object.keys(doc.components.schemas)) expect(name).not.toMatch(/^def-\d+$/);
    const tags = new Set(doc.tags.map((tag: Json) => tag.name));
    for (const [id, { path, op }] of c.operations) {
      expect(op.summary, id).toBeTruthy();
      expect(
        op.tags.every((tag: string) => tags.has(tag)),
        id,
      ).toBe(true);
      const security = op.security ?? doc.security;
      if (path.startsWith('/v1/admin/')) expect(security, id).toEqual([{ adminToken: [] }]);
      else if (path === '/v1/health') expect(security, id).toEqual([]);
      else if (path.startsWith('/dashboard/api/')) expect(security, id).toEqual([{ dashboardSession: [] }]);
      else expect(security, id).toEqual([{ merchantKey: [] }]);
    }
  });
});

describe('real responses match the document', () => {
  test('GET /v1/health', async () => {
    await call(t.app, 'getHealth', 200);
    await call(t.app, 'getHealth', 405, { method: 'POST', body: {} });
  });

  test('GET /v1/merchant/me', async () => {
    const me = await call(t.app, 'getMe', 200, { auth: m.auth });
    expect(me.json().data.project.id).toBe(m.projectId);
    await call(t.app, 'getMe', 401);
    await call(t.app, 'getMe', 401, { auth: { authorization: 'Bearer nope' } });
    await call(t.app, 'getMe', 401, { auth: { authorization: `Bearer svc_secret_${'x'.repeat(32)}` } });
    await call(t.app, 'getMe', 405, { auth: m.auth, method: 'DELETE' });
  });

  test('POST /v1/merchant/invoices', async () => {
    const body = { amount: '10', order_id: 'order-1', metadata: { sku: 'A1' } };
    const headers = { 'idempotency-key': 'openapi-test-1' };
    const created = await call(t.app, 'createInvoice', 201, { auth: m.auth, body, headers });
    expect(created.headers.location).toBe(`/v1/merchant/invoices/${created.json().data.id}`);
    const replay = await call(t.app, 'createInvoice', 201, { auth: m.auth, body, headers });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    await call(t.app, 'createInvoice', 201, { auth: m.auth, body: { amount: '0.5' } });
    await call(t.app, 'createInvoice', 401, { body });
    await call(t.app, 'createInvoice', 405, { auth: m.auth, method: 'PUT', body });
    for (const bad of [{ amount: 10 }, { amount: '1.234', color: 'red' }, {}, '[]']) {
      await call(t.app, 'createInvoice', 422, { auth: m.auth, body: bad });
    }
    await call(t.app, 'createInvoice', 422, {
      auth: m.auth,
      body: { amount: '11' },
      headers: { 'idempotency-key': 'openapi-test-1' },
    });
    await call(t.app, 'createInvoice', 422, {
      auth: m.auth,
      body: 'amount=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  });

  test('GET /v1/merchant/invoices', async () => {
    await createInvoice(t.app, m, { amount: '3.00' });
    const list = await call(t.app, 'listInvoices', 200, { auth: m.auth, query: 'limit=2' });
    expect(list.json().data.length).toBe(2);
    await call(t.app, 'listInvoices', 200, { auth: m.auth, query: 'status=pending,paid&order_id=order-1' });
    await call(t.app, 'listInvoices', 200, { auth: m.auth, query: 'page=999' });
    await call(t.app, 'listInvoices', 401);
    await call(t.app, 'listInvoices', 405, { auth: m.auth, method: 'DELETE' });
    for (const query of ['limit=0', 'status=unpaid', 'sort=asc', 'page=x&limit=101']) {
      await call(t.app, 'listInvoices', 422, { auth: m.auth, query });
    }
  });

  test('GET /v1/merchant/invoices/{invoice}', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '4.00' })).json().data;
    await call(t.app, 'getInvoice', 200, { auth: m.auth, params: { invoice: inv.id } });
    for (const invoice of [`inv_${'A'.repeat(22)}`, 'nope']) {
      await call(t.app, 'getInvoice', 404, { auth: m.auth, params: { invoice } });
    }
    await call(t.app, 'getInvoice', 401, { params: { invoice: inv.id } });
    await call(t.app, 'getInvoice', 405, { auth: m.auth, params: { invoice: inv.id }, method: 'PATCH' });
  });

  test('merchant operations of an inactive project answer 403', async () => {
    const other = await createMerchant(t.app);
    const inv = (await createInvoice(t.app, other)).json().data;
    await admin(t.app, 'PATCH', `/v1/admin/projects/${other.projectId}`, { status: 'inactive' });
    await call(t.app, 'getMe', 403, { auth: other.auth });
    await call(t.app, 'createInvoice', 403, { auth: other.auth, body: { amount: '1.00' } });
    await call(t.app, 'listInvoices', 403, { auth: other.auth });
    await call(t.app, 'getInvoice', 403, { auth: other.auth, params: { invoice: inv.id } });
  });

  test('admin accounts', async () => {
    const account = await call(t.app, 'adminCreateAccount', 201, { auth: adminAuth, body: { name: 'Shop' } });
    const id = account.json().data.id;
    await call(t.app, 'adminCreateAccount', 401, { body: { name: 'Shop' } });
    await call(t.app, 'adminCreateAccount', 401, { auth: { authorization: 'Bearer wrong' }, body: {} });
    await call(t.app, 'adminCreateAccount', 405, { auth: adminAuth, method: 'GET' });
    await call(t.app, 'adminCreateAccount', 422, { auth: adminAuth, body: { name: '', x: 1 } });
    const params = { id };
    await call(t.app, 'adminUpdateAccount', 200, { auth: adminAuth, params, body: { status: 'inactive' } });
    await call(t.app, 'adminUpdateAccount', 401, { params, body: { status: 'active' } });
    await call(t.app, 'adminUpdateAccount', 404, {
      auth: adminAuth,
      params: { id: 'acct_nope' },
      body: { status: 'active' },
    });
    await call(t.app, 'adminUpdateAccount', 405, { auth: adminAuth, params, method: 'GET' });
    await call(t.app, 'adminUpdateAccount', 422, { auth: adminAuth, params, body: { status: 'closed' } });
  });

  test('admin projects', async () => {
    const body = { account_id: m.accountId, name: 'Second', currency: 'USDC', invoice_ttl_seconds: 600 };
    const project = await call(t.app, 'adminCreateProject', 201, { auth: adminAuth, body });
    await call(t.app, 'adminCreateProject', 401, { body });
    await call(t.app, 'adminCreateProject', 405, { auth: adminAuth, method: 'DELETE' });
    for (const bad of [{ ...body, account_id: 'acct_nope' }, { ...body, invoice_ttl_seconds: 1 }, {}]) {
      await call(t.app, 'adminCreateProject', 422, { auth: adminAuth, body: bad });
    }
    const params = { id: project.json().data.id };
    await call(t.app, 'adminUpdateProject', 200, { auth: adminAuth, params, body: { name: 'Renamed' } });
    await call(t.app, 'adminUpdateProject', 401, { params, body: { name: 'x' } });
    await call(t.app, 'adminUpdateProject', 404, {
      auth: adminAuth,
      params: { id: 'prj_nope' },
      body: { name: 'x' },
    });
    await call(t.app, 'adminUpdateProject', 405, { auth: adminAuth, params, method: 'GET' });
    await call(t.app, 'adminUpdateProject', 422, { auth: adminAuth, params, body: {} });
  });

  test('admin API keys', async () => {
    const params = { id: m.projectId };
    const issued = await call(t.app, 'adminCreateApiKey', 201, {
      auth: adminAuth,
      params,
      body: { name: 'ci' },
    });
    await call(t.app, 'adminCreateApiKey', 201, { auth: adminAuth, params, body: {} });
    await call(t.app, 'adminCreateApiKey', 401, { params, body: {} });
    await call(t.app, 'adminCreateApiKey', 404, { auth: adminAuth, params: { id: 'prj_nope' }, body: {} });
    await call(t.app, 'adminCreateApiKey', 405, { auth: adminAuth, params, method: 'GET' });
    await call(t.app, 'adminCreateApiKey', 422, { auth: adminAuth, params, body: { scopes: ['all'] } });
    const key = { id: issued.json().data.api_key.id };
    await call(t.app, 'adminRevokeApiKey', 200, { auth: adminAuth, params: key });
    await call(t.app, 'adminRevokeApiKey', 401, { params: key });
    await call(t.app, 'adminRevokeApiKey', 404, { auth: adminAuth, params: { id: 'key_nope' } });
    await call(t.app, 'adminRevokeApiKey', 405, { auth: adminAuth, params: key, method: 'GET' });
    await call(t.app, 'getMe', 401, { auth: { authorization: `Bearer ${issued.json().data.secret}` } });
  });

  test('sandbox payments', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '5.00' })).json().data;
    const params = { id: inv.id };
    const seen = { auth: adminAuth, params, body: { confirmed: false, tx_hash: 'tx-openapi-1' } };
    const detected = await call(t.app, 'adminSimulatePayment', 200, seen);
    expect(detected.json().data).toMatchObject({ status: 'pending', tx_hash: 'tx-openapi-1' });
    await call(t.app, 'adminSimulatePayment', 401, { params, body: {} });
    await call(t.app, 'adminSimulatePayment', 404, { auth: adminAuth, params: { id: 'inv_nope' }, body: {} });
    await call(t.app, 'adminSimulatePayment', 405, { auth: adminAuth, params, method: 'GET' });
    await call(t.app, 'adminSimulatePayment', 422, { auth: adminAuth, params, body: { amount: 'abc' } });
    const reversal = { auth: adminAuth, params, body: { tx_hash: 'tx-openapi-1' } };
    await call(t.app, 'adminSimulateReversal', 200, reversal);
    await call(t.app, 'adminSimulateReversal', 401, { params, body: { tx_hash: 'x' } });
    await call(t.app, 'adminSimulateReversal', 404, { ...reversal, params: { id: 'inv_nope' } });
    await call(t.app, 'adminSimulateReversal', 405, { auth: adminAuth, params, method: 'GET' });
    await call(t.app, 'adminSimulateReversal', 422, { auth: adminAuth, params, body: {} });
    const paid = await call(t.app, 'adminSimulatePayment', 200, { auth: adminAuth, params, body: {} });
    expect(paid.json().data.status).toBe('paid');
  });

  test('refunds of an invoice', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '5.00' })).json().data;
    const params = { invoice: inv.id };
    await call(t.app, 'createRefund', 422, { auth: m.auth, params, body: {} });
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
    const created = await call(t.app, 'createRefund', 201, {
      auth: m.auth,
      params,
      body: { amount: '2.00' },
    });
    expect(created.json().data.refund).toMatchObject({ amount: '2.00', status: 'awaiting_address' });
    await call(t.app, 'createRefund', 401, { params, body: {} });
    await call(t.app, 'createRefund', 404, { auth: m.auth, params: { invoice: 'inv_nope' }, body: {} });
    await call(t.app, 'createRefund', 405, { auth: m.auth, params, method: 'DELETE' });
    await call(t.app, 'createRefund', 422, { auth: m.auth, params, body: { amount: '3.01' } });
    await call(t.app, 'listRefunds', 200, { auth: m.auth, params });
    await call(t.app, 'listRefunds', 401, { params });
    await call(t.app, 'listRefunds', 404, { auth: m.auth, params: { invoice: 'inv_nope' } });
    const ids = { invoice: inv.id, refund: created.json().data.refund.id };
    const relinked = await call(t.app, 'newRefundClaimLink', 200, { auth: m.auth, params: ids });
    expect(relinked.json().data.refund.claim_url).toMatch(/\/refund\//);
    await call(t.app, 'newRefundClaimLink', 401, { params: ids });
    await call(t.app, 'newRefundClaimLink', 404, { auth: m.auth, params: { ...ids, refund: 'ref_nope' } });
    await call(t.app, 'cancelRefund', 200, { auth: m.auth, params: ids });
    await call(t.app, 'cancelRefund', 422, { auth: m.auth, params: ids });
    await call(t.app, 'newRefundClaimLink', 422, { auth: m.auth, params: ids });
    await call(t.app, 'cancelRefund', 401, { params: ids });
  });

  test('payment links and their invoices', async () => {
    const created = await call(t.app, 'createPaymentLink', 201, {
      auth: m.auth,
      body: { title: 'Logo', min_amount: '5.00', expires_at: '2999-01-01T00:00:00Z' },
    });
    const params = { link: created.json().data.id };
    await call(t.app, 'createPaymentLink', 422, {
      auth: m.auth,
      body: { title: 'x', amount: '1', max_amount: '2' },
    });
    await call(t.app, 'createPaymentLink', 401, { body: { title: 'x' } });
    await call(t.app, 'listPaymentLinks', 200, { auth: m.auth });
    await call(t.app, 'listPaymentLinks', 401, {});
    await call(t.app, 'getPaymentLink', 200, { auth: m.auth, params });
    await call(t.app, 'getPaymentLink', 404, { auth: m.auth, params: { link: 'plink_nope' } });
    await call(t.app, 'updatePaymentLink', 200, { auth: m.auth, params, body: { active: false } });
    await call(t.app, 'updatePaymentLink', 422, { auth: m.auth, params, body: { uses: 3 } });
    await call(t.app, 'listPaymentLinkInvoices', 200, { auth: m.auth, params });
    await call(t.app, 'listPaymentLinkInvoices', 404, { auth: m.auth, params: { link: 'plink_nope' } });
  });

  test('payment methods: a project of several, its invoices before and after payments in two tokens', async () => {
    // All test networks (contract §21): the sandbox simulates its payments.
    const methods = [
      { network: 'sandbox', currency: 'USDT' },
      { network: 'sandbox', currency: 'USDC' },
      { network: 'tron-nile', currency: 'USDT' },
      { network: 'polygon-amoy', currency: 'USDC' },
    ];
    const body = {
      account_id: m.accountId,
      name: 'Multi',
      currency: 'USD',
      payment_methods: methods,
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
      underpayment_tolerance_percent: 1.5,
    };
    const project = (await call(t.app, 'adminCreateProject', 201, { auth: adminAuth, body })).json().data;
    expect(project).toMatchObject({
      network: 'sandbox',
      payment_methods: methods,
      underpayment_tolerance_percent: 1.5,
    });
    const params = { id: project.id };
    const change = { payment_methods: [...methods, { network: 'base-sepolia', currency: 'USDC' }] };
    await call(t.app, 'adminUpdateProject', 200, { auth: adminAuth, params, body: change });
    for (const bad of [
      { payment_methods: [{ network: 'tron', currency: 'USDC' }] },
      { evm_xpub: 'xpub-nope' },
    ]) {
      await call(t.app, 'adminUpdateProject', 422, { auth: adminAuth, params, body: bad });
    }
    const key = await admin(t.app, 'POST', `/v1/admin/projects/${project.id}/api-keys`, {});
    const auth = { authorization: `Bearer ${key.secret}` };
    await call(t.app, 'getMe', 200, { auth });

    const created = await call(t.app, 'createInvoice', 201, { auth, body: { amount: '10.00' } });
    const invoice = created.json().data;
    expect(invoice).toMatchObject({ network: null, pay_address: null, payments: [] });
    expect(invoice.payment_methods).toHaveLength(5);
    const onTron = await call(t.app, 'createInvoice', 201, {
      auth,
      body: { amount: '1.00', network: 'tron-nile' },
    });
    expect(onTron.json().data).toMatchObject({
      network: 'tron-nile',
      payment_methods: [{ network: 'tron-nile' }],
    });
    await call(t.app, 'createInvoice', 422, { auth, body: { amount: '1.00', network: 'ethereum' } });

    const pay = { auth: adminAuth, params: { id: invoice.id } };
    await call(t.app, 'adminSimulatePayment', 200, { ...pay, body: { amount: '4.00', currency: 'USDT' } });
    const paid = await call(t.app, 'adminSimulatePayment', 200, { ...pay, body: { currency: 'USDC' } });
    expect(paid.json().data).toMatchObject({ status: 'paid', network: 'sandbox', amount_paid: '10.00' });
    await call(t.app, 'getInvoice', 200, { auth, params: { invoice: invoice.id } });
    await call(t.app, 'listInvoices', 200, { auth });
  });

  test('deposit address previews', async () => {
    const body = { network: 'tron', xpub: TRON_TEST_XPUB, count: 2 };
    const res = await call(t.app, 'adminPreviewDepositAddresses', 200, { auth: adminAuth, body });
    expect(res.json().data.addresses).toHaveLength(2);
    await call(t.app, 'adminPreviewDepositAddresses', 401, { body });
    await call(t.app, 'adminPreviewDepositAddresses', 405, { auth: adminAuth, method: 'GET' });
    await call(t.app, 'adminPreviewDepositAddresses', 422, { auth: adminAuth, body: { ...body, count: 0 } });
  });

  test("a project's branding: colour and logo", async () => {
    const project = { id: m.projectId };
    const nope = { id: 'prj_nope' };
    await call(t.app, 'adminGetBranding', 200, { auth: adminAuth, params: project });
    await call(t.app, 'adminGetBranding', 401, { params: project });
    await call(t.app, 'adminGetBranding', 404, { auth: adminAuth, params: nope });
    const color = { auth: adminAuth, params: project };
    await call(t.app, 'adminUpdateBranding', 200, { ...color, body: { brand_color: '#635bff' } });
    await call(t.app, 'adminUpdateBranding', 401, { params: project, body: { brand_color: null } });
    await call(t.app, 'adminUpdateBranding', 404, { ...color, params: nope, body: { brand_color: null } });
    await call(t.app, 'adminUpdateBranding', 422, { ...color, body: { brand_color: '#ffff00' } });
    const image = new PNG({ width: 4, height: 4 });
    const logo = { ...color, headers: { 'content-type': 'image/png' }, body: PNG.sync.write(image) };
    await call(t.app, 'adminUploadLogo', 200, logo);
    await call(t.app, 'adminUploadLogo', 401, { ...logo, auth: {} });
    await call(t.app, 'adminUploadLogo', 404, { ...logo, params: nope });
    await call(t.app, 'adminUploadLogo', 422, { ...logo, body: Buffer.from('<svg/>') });
    await call(t.app, 'adminDeleteLogo', 200, color);
    await call(t.app, 'adminDeleteLogo', 401, { params: project });
    await call(t.app, 'adminDeleteLogo', 404, { ...color, params: nope });
  });

  test('dashboard users and the dashboard JSON calls', async () => {
    const account = { id: m.accountId };
    const created = await call(t.app, 'adminCreateDashboardUser', 201, {
      auth: adminAuth,
      params: account,
      body: { email: 'openapi-owner@shop.example' },
    });
    expect(created.json().data.invite_url).toMatch(/\/dashboard\/invite\//);
    await call(t.app, 'adminCreateDashboardUser', 401, { params: account, body: { email: 'a@b.example' } });
    await call(t.app, 'adminCreateDashboardUser', 404, {
      auth: adminAuth,
      params: { id: 'acct_nope' },
      body: { email: 'a@b.example' },
    });
    await call(t.app, 'adminCreateDashboardUser', 422, {
      auth: adminAuth,
      params: account,
      body: { email: 'nope' },
    });

    await inviteAndAccept(t.app, m.accountId, 'openapi-second@shop.example');
    const owner = await signIn(t.app, 'openapi-second@shop.example');
    const session = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    const body = { network: 'tron', xpub: TRON_TEST_XPUB };
    const res = await call(t.app, 'dashboardPreviewDepositAddresses', 200, { auth: session, body });
    expect(res.json().data.addresses).toHaveLength(3);
    expect(res.json().data.addresses[0].address).toMatch(/^T/);
    await call(t.app, 'dashboardPreviewDepositAddresses', 401, { body });
    await call(t.app, 'dashboardPreviewDepositAddresses', 422, { auth: { cookie: owner.cookie }, body });
    await call(t.app, 'dashboardPreviewDepositAddresses', 422, {
      auth: session,
      body: { ...body, network: 'sandbox' },
    });
  });

  test('webhook endpoints, their delivery log and redelivery', async () => {
    const project = { id: m.projectId };
    const body = { url: 'http://127.0.0.1:9/paydesk-hook', events: ['invoice.paid'] };
    const created = await call(t.app, 'adminCreateWebhookEndpoint', 201, {
      auth: adminAuth,
      params: project,
      body,
    });
    await call(t.app, 'adminCreateWebhookEndpoint', 401, { params: project, body });
    await call(t.app, 'adminCreateWebhookEndpoint', 404, {
      auth: adminAuth,
      params: { id: 'prj_nope' },
      body,
    });
    await call(t.app, 'adminCreateWebhookEndpoint', 405, { auth: adminAuth, params: project, method: 'PUT' });
    for (const bad of [
      { url: 'ftp://example.test/x' },
      { ...body, events: ['invoice.lost'] },
      { ...body, x: 1 },
    ]) {
      await call(t.app, 'adminCreateWebhookEndpoint', 422, { auth: adminAuth, params: project, body: bad });
    }
    await call(t.app, 'adminListWebhookEndpoints', 200, { auth: adminAuth, params: project });
    await call(t.app, 'adminListWebhookEndpoints', 401, { params: project });
    await call(t.app, 'adminListWebhookEndpoints', 404, { auth: adminAuth, params: { id: 'prj_nope' } });
    await call(t.app, 'adminListWebhookEndpoints', 405, {
      auth: adminAuth,
      params: project,
      method: 'DELETE',
    });

    const endpoint = { id: created.json().data.endpoint.id };
    const deliveries = { auth: adminAuth, params: endpoint };
    await call(t.app, 'adminListWebhookAttempts', 200, deliveries);
    await call(t.app, 'adminListWebhookAttempts', 401, { params: endpoint });
    await call(t.app, 'adminListWebhookAttempts', 404, { ...deliveries, params: { id: 'we_nope' } });
    await call(t.app, 'adminListWebhookAttempts', 405, { ...deliveries, method: 'POST', body: {} });
    await call(t.app, 'adminListWebhookAttempts', 422, { ...deliveries, query: 'limit=0' });

    const inv = (await createInvoice(t.app, m, { amount: '2.00' })).json().data;
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
    const event = await t.database.db
      .selectFrom('events')
      .select('id')
      .where('invoice_id', '=', inv.id)
      .where('type', '=', 'invoice.paid')
      .executeTakeFirstOrThrow();
    const redeliver = { auth: adminAuth, params: { event: event.id } };
    await call(t.app, 'adminRedeliverEvent', 200, redeliver);
    await call(t.app, 'adminRedeliverEvent', 401, { params: { event: event.id } });
    await call(t.app, 'adminRedeliverEvent', 404, { ...redeliver, params: { event: 'evt_nope' } });
    await call(t.app, 'adminRedeliverEvent', 405, { ...redeliver, method: 'GET' });

    await call(t.app, 'adminDeleteWebhookEndpoint', 200, { auth: adminAuth, params: endpoint });
    await call(t.app, 'adminDeleteWebhookEndpoint', 401, { params: endpoint });
    await call(t.app, 'adminDeleteWebhookEndpoint', 404, { auth: adminAuth, params: { id: 'we_nope' } });
    await call(t.app, 'adminDeleteWebhookEndpoint', 405, {
      auth: adminAuth,
      params: endpoint,
      method: 'GET',
    });
  });

  test('the check itself fails on a field the document does not declare, and on a missing one', async () => {
    const res = await call(t.app, 'getMe', 200, { auth: m.auth });
    const body = res.json();
    const as = (b: unknown) =>
      ({
        statusCode: 200,
        headers: res.headers,
        body: JSON.stringify(b),
        json: () => b,
      }) as unknown as LightMyRequestResponse;
    expect(() => c.check('getMe', as({ ...body, debug: true }))).toThrow(/unevaluated/);
    const leaky = { ...body.data.api_key, key_hash: 'x' };
    expect(() => c.check('getMe', as({ ...body, data: { ...body.data, api_key: leaky } }))).toThrow(
      /unevaluated/,
    );
    const { message: _, ...noMessage } = body;
    expect(() => c.check('getMe', as(noMessage))).toThrow(/message/);
    expect(() => c.check('getMe', as({ ...body, trace_id: 'x' }))).toThrow(/pattern/);
  });

  test('429 from the rate limits and 503 from health while the database is down', async () => {
    const limited = await startTestApp({
      env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '1000000', AUTH_FAILURE_LIMIT: '1' },
    });
    try {
      const lm = await createMerchant(limited.app);
      const inv = (await createInvoice(limited.app, lm)).json().data;
      const auth = lm.auth;
      await call(limited.app, 'getMe', 429, { auth });
      await call(limited.app, 'createInvoice', 429, { auth, body: { amount: '1.00' } });
      await call(limited.app, 'listInvoices', 429, { auth });
      await call(limited.app, 'getInvoice', 429, { auth, params: { invoice: inv.id } });
      // Failed admin logins from one address are limited too (contract §3).
      const remoteAddress = '203.0.113.7';
      const wrong = { authorization: 'Bearer wrong' };
      await call(limited.app, 'adminCreateAccount', 401, { auth: wrong, body: { name: 'x' }, remoteAddress });
      const checks: Array<[string, Call]> = [
        ['adminCreateAccount', { body: { name: 'x' } }],
        ['adminUpdateAccount', { params: { id: lm.accountId }, body: { status: 'active' } }],
        ['adminCreateProject', { body: { account_id: lm.accountId, name: 'x' } }],
        ['adminUpdateProject', { params: { id: lm.projectId }, body: { name: 'x' } }],
        ['adminCreateApiKey', { params: { id: lm.projectId }, body: {} }],
        ['adminRevokeApiKey', { params: { id: lm.keyId } }],
      ];
      for (const [id, req] of checks)
        await call(limited.app, id, 429, { ...req, auth: wrong, remoteAddress });

      await limited.database.db.destroy();
      const down = await call(limited.app, 'getHealth', 503);
      expect(down.headers['retry-after']).toBe('5');
    } finally {
      await limited.close();
    }
  });

  test("a project's collections", async () => {
    // "Collect now" only takes the deposits and answers; no collector runs here (test/collecting.ts).
    const collecting = await startTestApp({ env: collectingEnv() });
    try {
      const shop = await createMerchant(collecting.app, {
        network: COLLECTING_NETWORK,
        payout_address: PAYOUT,
      });
      await confirmedDeposit(collecting, shop, '5.00');
      const project = { auth: adminAuth, params: { id: shop.projectId } };
      const made = await call(collecting.app, 'adminCollectNow', 202, {
        ...project,
        body: { network: 'evmtest' },
      });
      expect(made.json().data.collection).toMatchObject({
        status: 'pending',
        deposits: 1,
        amounts: { USDT: '5.00' },
      });
      await call(collecting.app, 'adminCollectNow', 422, { ...project, body: { network: 'evmtest' } });
      await call(collecting.app, 'adminCollectNow', 401, {
        params: project.params,
        body: { network: 'evmtest' },
      });
      await call(collecting.app, 'adminCollectNow', 404, {
        ...project,
        params: { id: 'prj_nope' },
        body: { network: 'evmtest' },
      });
      await call(collecting.app, 'adminListCollections', 200, project);
      await call(collecting.app, 'adminListCollections', 401, { params: project.params });
      await call(collecting.app, 'adminListCollections', 404, { ...project, params: { id: 'prj_nope' } });
    } finally {
      await collecting.close();
    }
  });

  test("the operator's metrics", async () => {
    const metrics = await call(t.app, 'adminMetrics', 200, { auth: adminAuth });
    expect(metrics.json().data.invoice_creates.requests).toBeGreaterThan(0);
    await call(t.app, 'adminMetrics', 401, {});
    await call(t.app, 'adminMetrics', 405, { auth: adminAuth, method: 'POST', body: {} });
  });

  test('every operation was checked with a success and an error response', () => {
    for (const id of c.operations.keys()) {
      const statuses = [...(c.exercised.get(id) ?? [])];
      expect(
        statuses.some((s) => s < 300),
        `${id}: no 2xx response was checked`,
      ).toBe(true);
      expect(
        statuses.some((s) => s >= 400),
        `${id}: no error response was checked`,
      ).toBe(true);
    }
  });
});

describe('GET /docs', () => {
  test('serves an HTML page whose scripts and styles load', async () => {
    const page = await t.app.inject({ url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((a) => a[1] as string);
    expect(assets.filter((a) => a.endsWith('.js')).length).toBeGreaterThanOrEqual(3);
    expect(assets.filter((a) => a.endsWith('.css')).length).toBeGreaterThanOrEqual(1);
    for (const asset of assets) {
      const res = await t.app.inject({ url: new URL(asset, 'http://paydesk.test/docs').pathname });
      expect(res.statusCode, asset).toBe(200);
      expect(res.headers['content-type'], asset).toMatch(/javascript|css|image\/png/);
    }
  });

  test('points Swagger UI at /v1/openapi.json', async () => {
    const init = await t.app.inject({ url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    const config = JSON.parse(/const config = (\{.*\})\n/.exec(init.body)?.[1] ?? 'null');
    // Swagger UI loads `urls` (and ignores `url`, which the plugin forces to its own ./json) when it is set.
    expect(config.urls).toEqual([{ url: '/v1/openapi.json', name: expect.any(String) }]);
  });
});
