import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { merchantWithOwner } from '../../test/dashboard.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app, { name: 'Kaffee & Co' });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ url, headers: m.auth });

describe('description: what the payer is paying for', () => {
  test('is kept, and returned by create, get and list', async () => {
    const description = '2 × Espresso beans, 1 kg — “Roast No. 5”';
    const created = await createInvoice(t.app, m, { amount: '10', order_id: 'desc-1', description });
    expect(created.statusCode).toBe(201);
    const invoice = created.json().data;
    expect(invoice.description).toBe(description);
    expect((await get(`/v1/merchant/invoices/${invoice.id}`)).json().data.description).toBe(description);
    const listed = (await get('/v1/merchant/invoices?order_id=desc-1')).json().data;
    expect(listed.map((i: { description: string }) => i.description)).toEqual([description]);
  });

  test('is null when not given, or given as null', async () => {
    for (const body of [{ amount: '5' }, { amount: '5', description: null }]) {
      expect((await createInvoice(t.app, m, body)).json().data.description).toBeNull();
    }
  });

  test.each([
    ['501 characters', 'x'.repeat(501), 'max_length'],
    ['a line break', 'first\nsecond', 'control_characters'],
    ['a NUL', 'a\u0000b', 'control_characters'],
    ['a number', 42, 'type'],
  ])('with %s is a VALIDATION_ERROR naming the field', async (_, description, rule) => {
    const res = await createInvoice(t.app, m, { amount: '5', description });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details.errors).toContainEqual(
      expect.objectContaining({ in: 'body', field: 'description', rule }),
    );
  });

  test('500 characters are accepted', async () => {
    const res = await createInvoice(t.app, m, { amount: '5', description: 'é'.repeat(500) });
    expect(res.statusCode).toBe(201);
  });

  test('is in the OpenAPI document, for create and in the invoice', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
    const create = doc.paths['/v1/merchant/invoices'].post.requestBody.content['application/json'].schema;
    expect(create.properties.description).toMatchObject({ maxLength: 500 });
    expect(JSON.stringify(doc.components.schemas.Invoice.properties.description)).toContain('null');
  });
});

describe('the payment page', () => {
  test("shows the merchant's name, the order id and the description, escaped", async () => {
    const invoice = (
      await createInvoice(t.app, m, {
        amount: '10',
        order_id: 'A-1<b>',
        description: 'Beans <script>alert(1)</script> & "more"',
      })
    ).json().data;
    const page = (await t.app.inject({ url: `/pay/${invoice.id}` })).body;
    expect(page).toContain('<p class="merchant-name">Kaffee &amp; Co</p>');
    expect(page).toContain('<p class="order-id">Order A-1&lt;b&gt;</p>');
    expect(page).toContain(
      '<p class="description">Beans &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot;</p>',
    );
    expect(page).not.toContain('<script>alert(1)');
  });

  test('speaks the payer’s language for the order id', async () => {
    const invoice = (await createInvoice(t.app, m, { amount: '10', order_id: 'A-2' })).json().data;
    const page = (await t.app.inject({ url: `/pay/${invoice.id}?lang=es` })).body;
    expect(page).toContain('<p class="order-id">Pedido A-2</p>');
    expect(page).not.toContain('class="description"');
  });

  test('shows neither when the invoice has neither', async () => {
    const invoice = (await createInvoice(t.app, m, { amount: '10' })).json().data;
    const page = (await t.app.inject({ url: `/pay/${invoice.id}` })).body;
    expect(page).toContain('Kaffee &amp; Co');
    expect(page).not.toContain('class="purchase"');
  });
});

test("the dashboard's invoice page shows the description, escaped", async () => {
  const { m: shop, owner } = await merchantWithOwner(t.app, 'desc-owner@shop.example');
  const invoice = (await createInvoice(t.app, shop, { amount: '3', description: 'Tea <i>green</i>' })).json()
    .data;
  const page = (await owner.get(`/dashboard/invoices/${invoice.id}`)).body;
  expect(page).toContain('<dt>Description</dt><dd>Tea &lt;i&gt;green&lt;/i&gt;</dd>');
});
