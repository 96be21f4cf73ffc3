import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createMerchant } from '../../../test/app.js';
import { type Server, startServer } from '../test/server.js';
import { type Invoice, Paydesk, PaydeskAuthenticationError } from './index.js';

let s: Server;
let paydesk: Paydesk;
/** The 250 invoices of one project, oldest first. */
const created: Invoice[] = [];

beforeAll(async () => {
  s = await startServer();
  paydesk = s.client();
  for (let i = 0; i < 250; i++) {
    created.push(await paydesk.invoices.create({ amount: `${i + 1}.00`, order_id: `walk-${i}` }));
  }
}, 120_000);
afterAll(() => s.close());

const listCalls = () => s.requests().filter((r) => r.startsWith('GET /v1/merchant/invoices?'));

describe('for await … of invoices.list()', () => {
  test('walks all 250 invoices, newest first, a page of `limit` at a time', async () => {
    const before = listCalls().length;
    const seen: string[] = [];
    for await (const invoice of paydesk.invoices.list({ limit: 100 })) seen.push(invoice.id);

    expect(seen).toEqual(created.map((i) => i.id).reverse());
    expect(listCalls().slice(before)).toEqual([
      'GET /v1/merchant/invoices?limit=100&page=1',
      'GET /v1/merchant/invoices?limit=100&page=2',
      'GET /v1/merchant/invoices?limit=100&page=3',
    ]);
  });

  test('uses the server’s page size (20) when no limit is given', async () => {
    const before = listCalls().length;
    let count = 0;
    for await (const _ of paydesk.invoices.list()) count++;
    expect(count).toBe(250);
    expect(listCalls().length - before).toBe(13);
  });

  test('starts at the page asked for', async () => {
    const seen: string[] = [];
    for await (const invoice of paydesk.invoices.list({ limit: 100, page: 3 })) seen.push(invoice.id);
    expect(seen).toEqual(
      created
        .slice(0, 50)
        .map((i) => i.id)
        .reverse(),
    );
  });

  test('stops fetching when the loop stops', async () => {
    const before = listCalls().length;
    const seen: string[] = [];
    for await (const invoice of paydesk.invoices.list({ limit: 10 })) {
      seen.push(invoice.id);
      if (seen.length === 15) break;
    }
    expect(seen).toHaveLength(15);
    expect(listCalls().length - before).toBe(2);
  });

  test('keeps its filters on every page', async () => {
    const m = await createMerchant(s.app);
    const client = new Paydesk(m.secret, { baseUrl: s.baseUrl });
    const paid: string[] = [];
    for (let i = 0; i < 7; i++) {
      const invoice = await client.invoices.create({ amount: '1.00' });
      if (i % 2 === 0) {
        await admin(s.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, {});
        paid.unshift(invoice.id);
      }
    }
    const seen: string[] = [];
    for await (const invoice of client.invoices.list({ status: 'paid', limit: 2 })) seen.push(invoice.id);
    expect(seen).toEqual(paid);
  });

  test('yields each invoice once when new ones are created during the walk', async () => {
    const m = await createMerchant(s.app);
    const client = new Paydesk(m.secret, { baseUrl: s.baseUrl });
    const before: string[] = [];
    for (let i = 0; i < 30; i++) before.unshift((await client.invoices.create({ amount: '1.00' })).id);

    const seen: string[] = [];
    for await (const invoice of client.invoices.list({ limit: 10 })) {
      seen.push(invoice.id);
      // Each new invoice goes on top and pushes every page down by one.
      if (seen.length % 10 === 5)
        for (let i = 0; i < 3; i++) await client.invoices.create({ amount: '2.00' });
    }
    expect(seen).toEqual(before);
  });

  test('a failing page rejects the loop with the typed error', async () => {
    const m = await createMerchant(s.app);
    const client = new Paydesk(m.secret, { baseUrl: s.baseUrl });
    for (let i = 0; i < 3; i++) await client.invoices.create({ amount: '1.00' });
    const walk = async () => {
      for await (const _ of client.invoices.list({ limit: 2 })) {
        await admin(s.app, 'POST', `/v1/admin/api-keys/${m.keyId}/revoke`);
      }
    };
    await expect(walk()).rejects.toBeInstanceOf(PaydeskAuthenticationError);
  });
});

describe('await invoices.list()', () => {
  test('is one page with its pagination; the same value iterates', async () => {
    const list = paydesk.invoices.list({ limit: 100, page: 2 });
    const page = await list;
    expect(page.pagination).toEqual({ page: 2, limit: 100, total: 250, total_pages: 3, has_more: true });
    expect(page.data.map((i) => i.id)).toEqual(
      created
        .slice(50, 150)
        .map((i) => i.id)
        .reverse(),
    );
    let count = 0;
    for await (const _ of list) count++;
    expect(count).toBe(150);
  });

  test('past the last page is empty', async () => {
    const page = await paydesk.invoices.list({ limit: 100, page: 4 });
    expect(page.data).toEqual([]);
    expect(page.pagination.has_more).toBe(false);
  });
});
