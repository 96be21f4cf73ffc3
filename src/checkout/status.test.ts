import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const newInvoice = async () =>
  (
    await createInvoice(t.app, m, {
      amount: '10.00',
      order_id: 'order-secret-1',
      metadata: { sku: 'hidden' },
    })
  ).json().data;
const status = (id: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `/pay/${id}/status`, headers });
const pay = (id: string, body: object = {}) =>
  admin(t.app, 'POST', `/v1/admin/invoices/${id}/simulate-payment`, body);

describe('GET /pay/{id}/status', () => {
  test('is the success envelope around exactly the public fields of contract §12', async () => {
    const inv = await newInvoice();
    const res = await status(inv.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success', 'trace_id']);
    expect(body.success).toBe(true);
    expect(body.trace_id).toBe(res.headers['x-trace-id']);
    expect(body.data).toEqual({
      id: inv.id,
      status: 'pending',
      amount: '10.00',
      amount_paid: '0.00',
      currency: inv.currency,
      network: 'sandbox',
      pay_address: inv.pay_address,
      payment_expires_at: inv.payment_expires_at,
      paid_at: null,
      payment_methods: [
        { network: 'sandbox', currency: 'USDT', pay_address: inv.pay_address, amount_due: '10.000000' },
      ],
    });
    expect(res.body).not.toMatch(/order-secret-1|hidden|prj_|acct_|metadata|tx_hash/);
  });

  test('sends a strong ETag and answers 304 with no body to If-None-Match', async () => {
    const inv = await newInvoice();
    const first = await status(inv.id);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await status(inv.id, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-store');
    expect((await status(inv.id, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  test('moves the ETag when a payment is seen, though no public field shows it, and again when it is paid', async () => {
    const inv = await newInvoice();
    const before = (await status(inv.id)).headers.etag as string;
    await pay(inv.id, { confirmed: false, tx_hash: '0xseen' });
    const seen = await status(inv.id, { 'if-none-match': before });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.status).toBe('pending');
    expect(seen.headers.etag).not.toBe(before);
    await pay(inv.id, { confirmed: true, tx_hash: '0xseen' });
    const paid = await status(inv.id, { 'if-none-match': seen.headers.etag as string });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data).toMatchObject({
      status: 'paid',
      amount_paid: '10.00',
      paid_at: expect.any(String),
    });
  });

  test('HEAD answers like GET without a body', async () => {
    const inv = await newInvoice();
    const res = await t.app.inject({ method: 'HEAD', url: `/pay/${inv.id}/status` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers.etag).toBeDefined();
  });

  test.each(['inv_unknown0000000000000000000', 'not-an-id', 'x'.repeat(300)])(
    'an unknown or malformed id (%s) is the API 404 envelope',
    async (id) => {
      const res = await status(id);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND', details: {} } });
    },
  );
});
