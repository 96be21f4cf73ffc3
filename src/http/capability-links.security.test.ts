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
import { FORM, formBody, PASSWORD } from '../../test/dashboard.js';
import { CAPABILITY_ROUTES, isCapabilityRoute, redactToken } from './log-redaction.js';

/**
 * Contract §21, "Capability links stay out of logs": every capability route (a token in the path
 * that grants access) visited through the real app, with every method and the odd paths an attacker
 * or a typo makes; the raw log stream, the error answers and the audit rows never hold the token.
 */
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const tokenOf = (url: string) => new URL(url).pathname.split('/').pop() as string;

async function claimToken(): Promise<{ token: string }> {
  const inv = (await createInvoice(t.app, m, { amount: '40.00' })).json().data;
  await t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${inv.id}/simulate-payment`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {},
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${inv.id}/refunds`,
    headers: m.auth,
    payload: { amount: '10.00' },
  });
  const refund = res.json().data.refund;
  return { token: tokenOf(refund.claim_url) };
}

async function inviteToken(email: string): Promise<string> {
  const { invite_url } = await admin(t.app, 'POST', `/v1/admin/accounts/${m.accountId}/users`, { email });
  return tokenOf(invite_url);
}

/** Every way a visitor reaches a capability path, the error paths included. */
async function visitAll(prefix: string, token: string, form: Record<string, string>) {
  const path = `${prefix}${token}`;
  const answers = [
    await t.app.inject({ url: path }),
    await t.app.inject({ url: `${path}?lang=de&token=${token}` }),
    await t.app.inject({ method: 'HEAD', url: path }),
    await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: formBody({ address: 'nope' }) }),
    await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    }),
    await t.app.inject({ method: 'PUT', url: path }),
    await t.app.inject({ method: 'DELETE', url: `${path}?x=1` }),
    await t.app.inject({ url: `${path}/more` }),
    await t.app.inject({ url: `${path}%zz` }),
    await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: formBody(form) }),
    await t.app.inject({ url: path }),
  ];
  for (const res of answers) {
    // An answer may lead back to the link (a 303 to the claim page); no error message names it.
    if (res.statusCode >= 400)
      expect(res.body, `${res.statusCode} ${res.body.slice(0, 200)}`).not.toContain(token);
  }
  return answers;
}

async function expectNowhere(tokens: readonly string[]) {
  const logs = t.rawLogs();
  const audit = JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
  for (const token of tokens) {
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(token.slice(0, 20));
    expect(audit).not.toContain(token);
  }
}

describe('capability links in logs, errors and audit rows', () => {
  test('a refund claim link: the page, the form, every other method and odd path', async () => {
    const { token } = await claimToken();
    await visitAll('/refund/', token, { method: 'sandbox:USDT', address: ADDRESS });
    // A second refund's link, claimed straight away.
    const other = await claimToken();
    await visitAll('/refund/', other.token, { method: 'sandbox:USDT', address: ADDRESS });
    await expectNowhere([token, other.token]);
    // What a log reader sees instead: the route, and the last 4 characters to tell links apart.
    const visit = t.logs.find((l) => l.msg === 'request completed' && String(l.url).startsWith('/refund/'));
    expect(visit?.url).toBe(`/refund/…${token.slice(-4)}`);
  });

  test('a dashboard invitation: the page, the form, every other method and odd path', async () => {
    const token = await inviteToken('invited@shop.example');
    await visitAll('/dashboard/invite/', token, { password: PASSWORD });
    await expectNowhere([token]);
  });

  test('every route with a token in its path is on the one list of capability routes', () => {
    const withToken = t.app.routeTable.filter((r) => /:token\b/.test(r.url));
    expect(withToken.length).toBeGreaterThan(0);
    for (const r of withToken) expect(isCapabilityRoute(r.url), r.url).toBe(true);
    expect(CAPABILITY_ROUTES.length).toBeGreaterThanOrEqual(2);
  });

  test('a token is written as … and at most its last 4 characters', () => {
    expect(redactToken(`${'A'.repeat(39)}wxyz`)).toBe('…wxyz');
    expect(redactToken('abcdefgh')).toBe('…');
    expect(redactToken('')).toBe('…');
  });
});
