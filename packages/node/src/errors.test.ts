import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createMerchant } from '../../../test/app.js';
import { type Server, startServer } from '../test/server.js';
import {
  Paydesk,
  PaydeskAuthenticationError,
  PaydeskError,
  PaydeskNotFoundError,
  PaydeskPermissionError,
  PaydeskValidationError,
} from './index.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const TRACE_ID = /^[0-9a-f]{32}$/;

/** The error a call rejects with; fails the test if it resolves. */
async function errorOf(call: Promise<unknown>): Promise<PaydeskError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof PaydeskError)) throw new Error(`expected a PaydeskError, got ${String(error)}`);
  return error;
}

/** The trace id Paydesk logged for its last response. */
function lastLoggedTraceId(): unknown {
  return s.logs.filter((l) => l.msg === 'request completed').at(-1)?.trace_id;
}

describe('errors are typed by their code and carry the trace id Paydesk logged', () => {
  test('an unknown key is a PaydeskAuthenticationError, API_KEY_INVALID', async () => {
    const stranger = new Paydesk(`svc_secret_${'x'.repeat(40)}`, { baseUrl: s.baseUrl });
    const error = await errorOf(stranger.me());
    expect(error).toBeInstanceOf(PaydeskAuthenticationError);
    expect(error).toMatchObject({
      code: 'API_KEY_INVALID',
      statusCode: 401,
      name: 'PaydeskAuthenticationError',
    });
    expect(error.traceId).toMatch(TRACE_ID);
    expect(error.traceId).toBe(lastLoggedTraceId());
  });

  test('a revoked key is a PaydeskAuthenticationError, API_KEY_REVOKED', async () => {
    const m = await createMerchant(s.app);
    await admin(s.app, 'POST', `/v1/admin/api-keys/${m.keyId}/revoke`);
    const error = await errorOf(new Paydesk(m.secret, { baseUrl: s.baseUrl }).invoices.list());
    expect(error).toBeInstanceOf(PaydeskAuthenticationError);
    expect(error).toMatchObject({ code: 'API_KEY_REVOKED', statusCode: 401 });
  });

  test('an inactive project or account is a PaydeskPermissionError', async () => {
    const m = await createMerchant(s.app);
    const client = new Paydesk(m.secret, { baseUrl: s.baseUrl });
    await admin(s.app, 'PATCH', `/v1/admin/projects/${m.projectId}`, { status: 'inactive' });
    const project = await errorOf(client.invoices.create({ amount: '1.00' }));
    expect(project).toBeInstanceOf(PaydeskPermissionError);
    expect(project).toMatchObject({ code: 'PROJECT_NOT_ACTIVE', statusCode: 403 });
    await admin(s.app, 'PATCH', `/v1/admin/accounts/${m.accountId}`, { status: 'inactive' });
    const account = await errorOf(client.me());
    expect(account).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVE', statusCode: 403 });
  });

  test('a bad create is a PaydeskValidationError listing every field at fault, and creates nothing', async () => {
    const client = s.client();
    const before = (await client.invoices.list()).pagination.total;
    const error = await errorOf(client.invoices.create({ amount: '1.234', order_id: 'x'.repeat(121) }));
    expect(error).toBeInstanceOf(PaydeskValidationError);
    const errors = (error as PaydeskValidationError).errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'body', field: 'amount', rule: 'decimal_places' }),
        expect.objectContaining({ in: 'body', field: 'order_id', rule: 'max_length' }),
      ]),
    );
    expect(error.statusCode).toBe(422);
    expect(error.message).toMatch(/amount: .*order_id: |order_id: .*amount: /);
    expect((await client.invoices.list()).pagination.total).toBe(before);
  });

  test('an amount sent as a JSON number is refused with the rule that says why', async () => {
    const error = await errorOf(s.client().invoices.create({ amount: 10 as unknown as string }));
    expect((error as PaydeskValidationError).errors).toEqual([
      expect.objectContaining({ field: 'amount', rule: 'type' }),
    ]);
  });

  test("an unknown invoice, and another project's, are PaydeskNotFoundError", async () => {
    const other = await createMerchant(s.app);
    const theirs = await new Paydesk(other.secret, { baseUrl: s.baseUrl }).invoices.create({
      amount: '1.00',
    });
    for (const id of [theirs.id, `inv_${'A'.repeat(22)}`, 'not an id/../me']) {
      const error = await errorOf(s.client().invoices.retrieve(id));
      expect(error, id).toBeInstanceOf(PaydeskNotFoundError);
      expect(error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    }
  });

  test('errors that would fail again are not retried', async () => {
    const before = s.requests().length;
    await errorOf(s.client().invoices.create({ amount: '-1' }));
    await errorOf(s.client().invoices.retrieve('inv_nothing'));
    expect(s.requests().length - before).toBe(2);
    expect(s.sleeps).toEqual([]);
  });

  test('no error, message or log line holds the secret key', async () => {
    const error = await errorOf(s.client().invoices.create({ amount: 'abc' }));
    const everything = [JSON.stringify(error), error.message, String(error.stack), s.rawLogs()].join('\n');
    expect(everything).not.toContain(s.merchant.secret);
  });
});
