import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app, { currency: 'USDC', invoice_ttl_seconds: 900 });
});
afterAll(() => t.close());

describe('POST /v1/merchant/invoices', () => {
  test('creates a pending invoice with the project settings, a Location and the envelope', async () => {
    const res = await createInvoice(t.app, m, {
      amount: '10',
      order_id: 'order-42',
      metadata: { sku: 'A1' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Invoice created' });
    expect(body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers['x-trace-id']).toBe(body.trace_id);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const inv = body.data;
    expect(res.headers.location).toBe(`/v1/merchant/invoices/${inv.id}`);
    expect(inv).toMatchObject({
      project_id: m.projectId,
      status: 'pending',
      amount: '10.00',
      currency: 'USDC',
      network: 'sandbox',
      order_id: 'order-42',
      metadata: { sku: 'A1' },
      paid_at: null,
      tx_hash: null,
    });
    expect(inv.id).toMatch(/^inv_[A-Za-z0-9]{22,}$/);
    expect(inv.payment_url).toBe(`http://paydesk.test/pay/${inv.id}`);
    expect(inv.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(inv.updated_at).toBe(inv.created_at);
    expect(Date.parse(inv.payment_expires_at) - Date.parse(inv.created_at)).toBe(900_000);
  });

  test('normalises amounts to two decimals', async () => {
    for (const [sent, stored] of [
      ['1', '1.00'],
      ['0.5', '0.50'],
      ['0.01', '0.01'],
      ['123456789012345.99', '123456789012345.99'],
    ]) {
      const res = await createInvoice(t.app, m, { amount: sent });
      expect(res.statusCode, sent).toBe(201);
      expect(res.json().data.amount).toBe(stored);
    }
  });

  test('leaves order_id out when none was given, and treats null as absent', async () => {
    for (const body of [{ amount: '5.00' }, { amount: '5.00', order_id: null, metadata: null }]) {
      const inv = (await createInvoice(t.app, m, body)).json().data;
      expect(inv).not.toHaveProperty('order_id');
      expect(inv.metadata).toEqual({});
    }
  });

  test('the created invoice reads back unchanged, key order included, and so does its invoice.created event', async () => {
    // The answer is made from the row written, not read back: its metadata must still read as the
    // database's (jsonb orders keys: shorter first, then bytewise; integer-like keys come first in JS).
    const metadata = { zeta: '1', b: '2', '10': '3', é: '4', a: '5', aa: '6', '2': '7', e: '8' };
    const created = (await createInvoice(t.app, m, { amount: '7.25', order_id: 'x', metadata })).json().data;
    const res = await t.app.inject({ url: `/v1/merchant/invoices/${created.id}`, headers: m.auth });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json().data)).toBe(JSON.stringify(created));
    expect(Object.keys(created.metadata)).toEqual(['2', '10', 'a', 'b', 'e', 'aa', 'é', 'zeta']);
    const event = await t.database.db
      .selectFrom('events')
      .select('body')
      .where('invoice_id', '=', created.id)
      .executeTakeFirstOrThrow();
    const sent = JSON.parse(event.body).data.invoice;
    expect(JSON.stringify(sent.metadata)).toBe(JSON.stringify(created.metadata));
    expect(sent).toEqual(created);
  });
});
