import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { createLink, pressPay } from '../../test/links.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: m.auth, ...(payload ? { payload } : {}) });

describe('payment links through the merchant API', () => {
  test('create → 201 with its url; get, list and patch answer the same link', async () => {
    const res = await api('POST', '/v1/merchant/payment-links', {
      title: 'Logo design',
      description: 'First draft',
      amount: '25',
      max_uses: 3,
      collect_email: true,
    });
    expect(res.statusCode).toBe(201);
    const link = res.json().data;
    expect(link).toMatchObject({
      id: expect.stringMatching(/^plink_/),
      url: `http://paydesk.test/l/${link.id}`,
      active: true,
      amount: '25.00',
      min_amount: null,
      currency: 'USDT',
      max_uses: 3,
      uses: 0,
      collect_email: true,
    });
    expect(link).not.toHaveProperty('form_secret');
    expect(res.headers.location).toBe(`/v1/merchant/payment-links/${link.id}`);
    expect((await api('GET', `/v1/merchant/payment-links/${link.id}`)).json().data).toEqual(link);
    const list = (await api('GET', '/v1/merchant/payment-links?limit=1')).json();
    expect(list.data[0].id).toBe(link.id);
    expect(list.meta.pagination).toMatchObject({ page: 1, limit: 1, total: 1 });
    const patched = await api('PATCH', `/v1/merchant/payment-links/${link.id}`, {
      active: false,
      title: 'Logo',
    });
    expect(patched.json().data).toMatchObject({ active: false, title: 'Logo', amount: '25.00' });
  });

  test('bad input is a VALIDATION_ERROR naming each field; unknown fields are refused', async () => {
    const both = await api('POST', '/v1/merchant/payment-links', {
      title: 'x',
      amount: '5',
      min_amount: '1',
    });
    expect(both.statusCode).toBe(422);
    expect(both.json().error.details.errors).toEqual([
      expect.objectContaining({ field: 'amount', rule: 'exclusive' }),
    ]);
    const range = await api('POST', '/v1/merchant/payment-links', {
      title: 'x',
      min_amount: '9',
      max_amount: '1',
    });
    expect(range.json().error.details.errors[0]).toMatchObject({ field: 'min_amount', rule: 'range' });
    const past = await api('POST', '/v1/merchant/payment-links', {
      title: 'x',
      expires_at: '2000-01-01T00:00:00Z',
    });
    expect(past.json().error.details.errors[0]).toMatchObject({ field: 'expires_at', rule: 'future' });
    const unknown = await api('POST', '/v1/merchant/payment-links', { title: 'x', price: '5' });
    expect(unknown.statusCode).toBe(422);
    const money = await api('POST', '/v1/merchant/payment-links', { title: 'x', amount: 5 });
    expect(money.statusCode).toBe(422);
    const other = await createMerchant(t.app);
    const foreign = await createLink(t.app, other);
    expect((await api('GET', `/v1/merchant/payment-links/${foreign.id}`)).statusCode).toBe(404);
    expect((await api('GET', `/v1/merchant/payment-links/${foreign.id}/invoices`)).statusCode).toBe(404);
  });

  test('"Pay" makes one invoice, listed under the link, with payment_link_id on it and its event', async () => {
    const link = await createLink(t.app, m, {
      amount: null,
      min_amount: '5',
      max_amount: '50',
      collect_email: true,
    });
    const res = await pressPay(t.app, link.id, { amount: '12,50', email: ' Ana@Example.COM ' });
    expect(res.statusCode).toBe(303);
    const invoiceId = /\/pay\/(inv_\w+)\?lang=es$/.exec(res.headers.location as string)?.[1] as string;
    expect(invoiceId).toBeTruthy();
    const invoice = (await api('GET', `/v1/merchant/invoices/${invoiceId}`)).json().data;
    expect(invoice).toMatchObject({ amount: '12.50', payment_link_id: link.id, description: 'Logo design' });
    const listed = (await api('GET', `/v1/merchant/payment-links/${link.id}/invoices`)).json();
    expect(listed.data.map((i: { id: string }) => i.id)).toEqual([invoiceId]);
    expect(listed.meta.pagination.total).toBe(1);
    expect((await api('GET', `/v1/merchant/payment-links/${link.id}`)).json().data.uses).toBe(1);
    const db = t.database.db;
    const row = await db
      .selectFrom('invoices')
      .select(['payer_email', 'payer_language'])
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ payer_email: 'ana@example.com', payer_language: 'es' });
    const event = await db
      .selectFrom('events')
      .select('body')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.body).data.invoice.payment_link_id).toBe(link.id);
  });

  test('refusals are pages in the payer language and make nothing', async () => {
    const link = await createLink(t.app, m, {
      amount: null,
      min_amount: '5',
      max_amount: '50',
      collect_email: true,
    });
    const low = await pressPay(t.app, link.id, { amount: '1', email: 'a@b.co' });
    expect(low.statusCode).toBe(422);
    expect(low.body).toContain('Introduce un importe');
    const mail = await pressPay(t.app, link.id, { amount: '6', email: 'not-an-address' });
    expect(mail.statusCode).toBe(422);
    expect(mail.body).toContain('correo válida');
    const late = pressPay(t.app, link.id, { amount: '6', email: 'a@b.co' }, '198.51.100.8', async () => {
      await api('PATCH', `/v1/merchant/payment-links/${link.id}`, { active: false });
    });
    const off = await late;
    expect(off.statusCode).toBe(409);
    expect(off.body).toContain('no está activo');
    expect((await api('GET', `/v1/merchant/payment-links/${link.id}`)).json().data.uses).toBe(0);
  });
});
