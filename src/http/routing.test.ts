import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TRACE_ID = /^[0-9a-f]{32}$/;

describe('unknown paths', () => {
  const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
  const PATHS = ['/', '/v1', '/v2/merchant/me', '/v1/merchant/me/', '/v1/merchant/invoices/inv_x/extra'];

  test.each(METHODS)('%s on a path nobody serves is a 404 NOT_FOUND envelope', async (method) => {
    for (const url of PATHS) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json();
      expect(body).toEqual({
        success: false,
        message: expect.any(String),
        error: { code: 'NOT_FOUND', details: {} },
        trace_id: expect.stringMatching(TRACE_ID),
      });
      expect(res.headers['x-trace-id']).toBe(body.trace_id);
      expect(res.headers.allow).toBeUndefined();
    }
  });

  test('the 404 message names the path but not its query string', async () => {
    const res = await t.app.inject({ url: '/v1/nowhere?token=abc' });
    expect(res.json().message).toContain('/v1/nowhere');
    expect(res.body).not.toContain('token=abc');
  });
});

describe('known paths with a wrong method', () => {
  const CASES = [
    { method: 'POST', url: '/v1/health', allowed: ['GET'] },
    { method: 'PUT', url: '/v1/merchant/me', allowed: ['GET'] },
    { method: 'DELETE', url: '/v1/merchant/invoices', allowed: ['GET', 'POST'] },
    { method: 'PATCH', url: '/v1/merchant/invoices?status=paid', allowed: ['GET', 'POST'] },
    { method: 'DELETE', url: '/v1/merchant/invoices/inv_abc', allowed: ['GET'] },
    { method: 'GET', url: '/v1/admin/accounts', allowed: ['POST'] },
    { method: 'POST', url: '/v1/admin/accounts/acct_x', allowed: ['PATCH'] },
  ] as const;

  test.each(CASES)('$method $url is 405 with Allow: $allowed', async ({ method, url, allowed }) => {
    // With credentials or without, the answer is the same: routing comes before authentication.
    for (const headers of [{}, { authorization: `Bearer ${ADMIN_TOKEN}` }]) {
      const res = await t.app.inject({ method, url, headers });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe(allowed.join(', '));
      const body = res.json();
      expect(body).toEqual({
        success: false,
        message: expect.any(String),
        error: { code: 'METHOD_NOT_ALLOWED', details: { allowed: [...allowed] } },
        trace_id: expect.stringMatching(TRACE_ID),
      });
      expect(res.headers['x-trace-id']).toBe(body.trace_id);
    }
  });
});
