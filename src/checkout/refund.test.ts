import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { byOperator } from '../audit/audit.js';
import { cancelRefund } from '../refunds/actions.js';
import { CONTENT_SECURITY_POLICY } from '../web/headers.js';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

async function newRefund(amount = '40.00', refund: object = {}) {
  const inv = (await createInvoice(t.app, m, { amount })).json().data;
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
    payload: refund,
  });
  const r = res.json().data.refund;
  return { ...r, path: new URL(r.claim_url).pathname as string };
}

const submit = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });

const stored = (id: string) =>
  t.database.db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the claim page', () => {
  test('shows the project, the amount, the methods, "Refund address" and "Request refund", under a strict CSP', async () => {
    const r = await newRefund('40.00', { amount: '12.50' });
    const res = await t.app.inject({ url: r.path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('Test project');
    expect(res.body).toContain('12.50 USDT');
    expect(res.body).toContain('USDT on Sandbox');
    expect(res.body).toMatch(/<label class="field-label" for="address">Refund address<\/label>/);
    expect(res.body).toContain('>Request refund</button>');
    // The payment page's assets, by a relative path: no copy of them.
    expect(res.body).toMatch(/href="\.\.\/pay\/assets\/pay\.[0-9a-f]+\.css"/);
  });

  test("in the payer's language", async () => {
    const r = await newRefund();
    const es = await t.app.inject({ url: r.path, headers: { 'accept-language': 'es-ES,es;q=0.9' } });
    expect(es.headers['content-language']).toBe('es');
    expect(es.body).toContain('Solicitar reembolso');
    const zh = await t.app.inject({ url: `${r.path}?lang=zh` });
    expect(zh.body).toContain('申请退款');
  });

  test('an address without its checksum comes back with the error beside the field; nothing changes', async () => {
    const r = await newRefund();
    const res = await submit(r.path, { method: 'sandbox:USDT', address: ADDRESS.toLowerCase() });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('role="alert"');
    expect(res.body).toContain('aria-invalid="true"');
    // Why (EIP-55), and the checksummed form to compare with the wallet.
    expect(res.body).toContain('so it carries no EIP-55 checksum');
    expect(res.body).toContain(`If it is exactly your address, its checksummed form is ${ADDRESS}`);
    expect(res.body).toContain(`value="${ADDRESS.toLowerCase()}"`);
    expect((await stored(r.id)).status).toBe('awaiting_address');
    const noMethod = await submit(r.path, { address: ADDRESS });
    expect(noMethod.statusCode).toBe(422);
    expect(noMethod.body).toContain('Choose how you want to receive the refund.');
  });

  test('a good address makes the refund ready, once: the link then shows its status, and a second answer changes nothing', async () => {
    const r = await newRefund('40.00', { amount: '10.00' });
    const res = await submit(r.path, { method: 'sandbox:USDT', address: ADDRESS });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^[A-Za-z0-9]{43}\?lang=en$/);
    const row = await stored(r.id);
    expect(row).toMatchObject({ status: 'ready', network: 'sandbox', token: 'USDT', address: ADDRESS });
    expect(row.token_amount).toBe('10.000000000000000000');
    const event = await t.database.db
      .selectFrom('events')
      .selectAll()
      .where('invoice_id', '=', r.invoice_id)
      .where('type', '=', 'refund.ready')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.body).data).toMatchObject({
      refund: { id: r.id, status: 'ready', network: 'sandbox', address: ADDRESS, claim_url: null },
      previous_status: 'awaiting_address',
      token: 'USDT',
      token_amount: '10.000000',
    });

    const page = await t.app.inject({ url: r.path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Refund requested');
    expect(page.body).toContain(ADDRESS);
    expect(page.body).not.toContain('Request refund</button>');

    const other = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
    const again = await submit(r.path, { method: 'sandbox:USDT', address: other });
    expect(again.statusCode).toBe(303);
    expect((await stored(r.id)).address).toBe(ADDRESS);
  });

  test('an unknown link, a malformed one and a canceled refund are a readable page, not JSON', async () => {
    const canceled = await newRefund();
    const now = new Date();
    await cancelRefund(
      t.app.db,
      { kind: 'dashboard', projectId: m.projectId, change: byOperator(now) },
      { refundId: canceled.id },
      now,
    );
    for (const path of [`/refund/${'A'.repeat(43)}`, '/refund/nonsense', '/refund/x/y', canceled.path]) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('Refund link not valid');
    }
    const posted = await submit(`/refund/${'B'.repeat(43)}`, { method: 'sandbox:USDT', address: ADDRESS });
    expect(posted.statusCode).toBe(404);
    expect(posted.body).toContain('Refund link not valid');
  });

  test('a cross-site post is refused', async () => {
    const r = await newRefund();
    const res = await submit(
      r.path,
      { method: 'sandbox:USDT', address: ADDRESS },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(res.statusCode).toBe(404);
    expect((await stored(r.id)).status).toBe('awaiting_address');
  });
});
