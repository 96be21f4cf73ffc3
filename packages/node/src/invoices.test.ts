import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createMerchant } from '../../../test/app.js';
import { type Server, startServer } from '../test/server.js';
import {
  type Invoice,
  type InvoicePaymentMethod,
  Paydesk,
  PaydeskValidationError,
  type Payment,
} from './index.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('me()', () => {
  test('takes the base URL with or without /v1', async () => {
    for (const baseUrl of [`${s.baseUrl}/`, `${s.baseUrl}/v1`, `${s.baseUrl}/v1/`]) {
      expect((await s.client({ baseUrl }).me()).project.id, baseUrl).toBe(s.merchant.projectId);
    }
  });

  test('returns the project and the key in use', async () => {
    const me = await s.client().me();
    expect(me.project).toMatchObject({ id: s.merchant.projectId, status: 'active', network: 'sandbox' });
    expect(me.api_key).toMatchObject({
      id: s.merchant.keyId,
      status: 'active',
      last4: s.merchant.secret.slice(-4),
    });
  });
});

describe('invoices.create()', () => {
  test('creates a pending invoice with the amount normalised, the order id, description and metadata', async () => {
    const invoice = await s.client().invoices.create({
      amount: '10',
      order_id: 'order-1',
      description: 'Beans, 1 kg',
      metadata: { sku: 'A-1' },
    });
    expect(invoice).toMatchObject({
      status: 'pending',
      amount: '10.00',
      order_id: 'order-1',
      description: 'Beans, 1 kg',
      metadata: { sku: 'A-1' },
      project_id: s.merchant.projectId,
      amount_paid: '0.00',
      paid_at: null,
    });
    expect(invoice.id).toMatch(/^inv_[A-Za-z0-9]{22,}$/);
    expect(invoice.payment_url).toBe(`http://paydesk.test/pay/${invoice.id}`);
  });

  test('with the same idempotency key twice returns the first invoice and creates no other', async () => {
    const client = s.client();
    const options = { idempotencyKey: 'checkout-order-2' };
    const first = await client.invoices.create({ amount: '5.00', order_id: 'order-2' }, options);
    const again = await client.invoices.create({ amount: '5', order_id: 'order-2' }, options);
    expect(again).toEqual(first);
    const page = await client.invoices.list({ order_id: 'order-2' });
    expect(page.data.map((i) => i.id)).toEqual([first.id]);
  });

  test('refuses an idempotency key that is not 1 to 255 visible ASCII characters, sending nothing', async () => {
    const before = s.requests().length;
    for (const idempotencyKey of ['', 'two words', 'x'.repeat(256), 'clé']) {
      await expect(s.client().invoices.create({ amount: '1.00' }, { idempotencyKey })).rejects.toThrow(
        /idempotencyKey: expected 1 to 255 visible ASCII characters/,
      );
    }
    expect(s.requests().length).toBe(before);
  });

  test('without a key sends one of its own, a fresh one for each call', async () => {
    const before = s.requests().length;
    const client = s.client();
    const a = await client.invoices.create({ amount: '1.00' });
    const b = await client.invoices.create({ amount: '1.00' });
    expect(a.id).not.toBe(b.id);
    expect(s.requests().slice(before)).toEqual(['POST /v1/merchant/invoices', 'POST /v1/merchant/invoices']);
  });
});

describe('invoices.retrieve()', () => {
  test('returns the invoice as it is now', async () => {
    const client = s.client();
    const created = await client.invoices.create({ amount: '3.00' });
    await admin(s.app, 'POST', `/v1/admin/invoices/${created.id}/simulate-payment`, {});
    const invoice = await client.invoices.retrieve(created.id);
    expect(invoice).toMatchObject({ id: created.id, status: 'paid', amount_paid: '3.00' });
    expect(invoice.paid_at).toEqual(expect.any(String));
  });

  test('refuses an empty id before any request', async () => {
    await expect(s.client().invoices.retrieve('')).rejects.toThrow(/expected an invoice id/);
  });
});

describe('invoices.list()', () => {
  test('awaited, is one page, newest first, with its pagination', async () => {
    const client = s.client();
    const mine: Invoice[] = [];
    for (let i = 0; i < 3; i++)
      mine.push(await client.invoices.create({ amount: '2.00', order_id: 'list-page' }));
    const page = await client.invoices.list({ order_id: 'list-page', limit: 2 });
    expect(page.data.map((i) => i.id)).toEqual([mine[2]?.id, mine[1]?.id]);
    expect(page.pagination).toEqual({ page: 1, limit: 2, total: 3, total_pages: 2, has_more: true });
    const last = await client.invoices.list({ order_id: 'list-page', limit: 2, page: 2 });
    expect(last.data.map((i) => i.id)).toEqual([mine[0]?.id]);
    expect(last.pagination.has_more).toBe(false);
  });

  test('filters by one status or several', async () => {
    const client = s.client();
    const paid = await client.invoices.create({ amount: '4.00', order_id: 'list-status' });
    const open = await client.invoices.create({ amount: '4.00', order_id: 'list-status' });
    await admin(s.app, 'POST', `/v1/admin/invoices/${paid.id}/simulate-payment`, {});
    const onlyPaid = await client.invoices.list({ order_id: 'list-status', status: 'paid' });
    expect(onlyPaid.data.map((i) => i.id)).toEqual([paid.id]);
    const both = await client.invoices.list({ order_id: 'list-status', status: ['pending', 'paid'] });
    expect(both.data.map((i) => i.id)).toEqual([open.id, paid.id]);
  });
});

describe('invoices of several payment methods', () => {
  test('offer every method until paid; a payment in each token; network on create offers one network', async () => {
    const shop = await createMerchant(s.app, {
      currency: 'USD',
      payment_methods: [
        { network: 'sandbox', currency: 'USDT' },
        { network: 'sandbox', currency: 'USDC' },
      ],
    });
    const paydesk = new Paydesk(shop.secret, { baseUrl: s.baseUrl });
    const me = await paydesk.me();
    expect(me.project).toMatchObject({
      currency: 'USD',
      payment_methods: [{ currency: 'USDT' }, { currency: 'USDC' }],
    });

    const invoice = await paydesk.invoices.create({ amount: '10.00' });
    // Several methods: no network or address until the first payment says which one was used.
    expect(invoice).toMatchObject({ currency: 'USD', network: null, pay_address: null });
    const methods: InvoicePaymentMethod[] = invoice.payment_methods;
    expect(methods.map((m) => [m.network, m.currency, m.amount_due])).toEqual([
      ['sandbox', 'USDT', '10.000000'],
      ['sandbox', 'USDC', '10.000000'],
    ]);

    const pay = `/v1/admin/invoices/${invoice.id}/simulate-payment`;
    await admin(s.app, 'POST', pay, { amount: '4.00', currency: 'USDT', tx_hash: '0xusdt' });
    const part = await paydesk.invoices.retrieve(invoice.id);
    expect(part).toMatchObject({ status: 'pending', network: 'sandbox', amount_paid: '4.00' });
    expect(part.payment_methods.map((m) => m.amount_due)).toEqual(['6.000000', '6.000000']);
    await admin(s.app, 'POST', pay, { currency: 'USDC', tx_hash: '0xusdc' });
    const paid = await paydesk.invoices.retrieve(invoice.id);
    const payments: Payment[] = paid.payments;
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '10.00' });
    expect(payments.map((p) => [p.currency, p.amount, p.status])).toEqual([
      ['USDT', '4.00', 'confirmed'],
      ['USDC', '6.00', 'confirmed'],
    ]);

    const one = await paydesk.invoices.create({ amount: '1.00', network: 'sandbox' });
    expect(one.payment_methods).toHaveLength(2);
    const refused = await paydesk.invoices.create({ amount: '1.00', network: 'tron' }).catch((e) => e);
    expect(refused).toBeInstanceOf(PaydeskValidationError);
    expect(refused.errors).toEqual([expect.objectContaining({ field: 'network', rule: 'not_accepted' })]);
  });
});
