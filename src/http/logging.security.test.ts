import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  admin,
  createInvoice,
  createMerchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('no log line ever holds a full API key secret or the admin token', async () => {
  const m = await createMerchant(t.app);
  const revoked = await createMerchant(t.app);
  await admin(t.app, 'POST', `/v1/admin/api-keys/${revoked.keyId}/revoke`);
  const secrets = [m.secret, revoked.secret, ADMIN_TOKEN];

  // Success paths.
  const invoice = (await createInvoice(t.app, m)).json().data;
  for (const url of ['/v1/merchant/me', '/v1/merchant/invoices', `/v1/merchant/invoices/${invoice.id}`]) {
    expect((await t.app.inject({ url, headers: m.auth })).statusCode).toBe(200);
  }
  // Failure paths, each carrying a real secret somewhere in the Authorization header.
  const refused = [
    `Bearer ${revoked.secret}`,
    `Basic ${m.secret}`,
    `Bearer ${m.secret}!`,
    `Bearer ${m.secret} ${m.secret}`,
    // One character changed (a key ending in X must not become itself).
    `Bearer ${m.secret.slice(0, -1)}${m.secret.endsWith('X') ? 'Y' : 'X'}`,
  ];
  for (const authorization of refused) {
    const res = await t.app.inject({ url: '/v1/merchant/me', headers: { authorization } });
    expect(res.statusCode, authorization).toBe(401);
  }
  const badBody = await createInvoice(t.app, m, { amount: 10 });
  expect(badBody.statusCode).toBe(422);
  // Admin calls, right and wrong.
  await admin(t.app, 'POST', '/v1/admin/accounts', { name: 'Logged' });
  for (const authorization of [`Bearer ${ADMIN_TOKEN}x`, `Basic ${ADMIN_TOKEN}`, `Bearer ${m.secret}`]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/accounts',
      headers: { authorization },
      payload: { name: 'x' },
    });
    expect(res.statusCode, authorization).toBe(401);
  }

  const raw = t.rawLogs();
  expect(t.logs.length).toBeGreaterThan(20); // the scan is not vacuous
  for (const secret of secrets) {
    expect(raw).not.toContain(secret);
    // Nor the secret's random part alone, whatever prefix or quoting surrounds it.
    expect(raw).not.toContain(secret.replace(/^svc_secret_/, ''));
  }
});
