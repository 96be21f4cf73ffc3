import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import type { InvoiceStatus } from './status.js';

const clock = manualClock(new Date('2026-05-01T08:00:00.000Z'));
let t: TestApp;
let m: Merchant;
let other: Merchant;
/** m's invoices in the order they were created. */
const created: Array<{ id: string; created_at: string; order_id: string }> = [];
const otherIds: string[] = [];

/**
 * Fixture only: puts rows in a given state. How statuses change is the lifecycle's business and is
 * tested there; the list only needs invoices in each state.
 */
async function setStatus(id: string, status: InvoiceStatus) {
  await t.database.db
    .updateTable('invoices')
    .set({ status, ...(status === 'paid' ? { paid_at: clock() } : {}) })
    .where('id', '=', id)
    .execute();
}

beforeAll(async () => {
  t = await startTestApp({ clock });
  m = await createMerchant(t.app);
  other = await createMerchant(t.app);
  // 25 invoices, three to a timestamp, so ties on created_at must be broken by id.
  for (let i = 0; i < 25; i++) {
    if (i % 3 === 0) clock.advance(1000);
    const res = await createInvoice(t.app, m, { amount: `${i + 1}.00`, order_id: `ord-${i % 5}` });
    created.push(res.json().data);
  }
  for (let i = 0; i < 3; i++) {
    const res = await createInvoice(t.app, other, { amount: '1.00', order_id: 'ord-1' });
    otherIds.push(res.json().data.id);
  }
  await setStatus(created[1]!.id, 'paid');
  await setStatus(created[4]!.id, 'paid');
  await setStatus(created[2]!.id, 'expired');
  await setStatus(created[5]!.id, 'failed');
  await setStatus(otherIds[0]!, 'paid');
});
afterAll(() => t.close());

function list(query = '', merchant = m) {
  return t.app.inject({ url: `/v1/merchant/invoices${query}`, headers: merchant.auth });
}

async function ids(query: string, merchant = m): Promise<string[]> {
  const res = await list(query, merchant);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((i: { id: string }) => i.id);
}

/** created_at descending, then id descending (the database compares ids bytewise, as JS does). */
const newestFirst = () =>
  [...created]
    .sort((a, b) =>
      a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
    )
    .map((i) => i.id);

describe('GET /v1/merchant/invoices', () => {
  test('defaults to the first page of 20, with the pagination in meta', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: expect.any(String) });
    expect(body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.data).toHaveLength(20);
    expect(body.meta).toEqual({
      pagination: { page: 1, limit: 20, total: 25, total_pages: 2, has_more: true },
    });
  });

  test('lists invoices as GET returns them', async () => {
    const [first] = (await list('?limit=1')).json().data;
    const one = await t.app.inject({ url: `/v1/merchant/invoices/${first.id}`, headers: m.auth });
    expect(first).toEqual(one.json().data);
  });

  test('lists newest first, ties broken by id, and pages are stable', async () => {
    const expected = newestFirst();
    const timestamps = new Set(created.map((i) => i.created_at));
    expect(timestamps.size).toBeLessThan(created.length);
    expect(await ids('?limit=100')).toEqual(expected);

    const paged: string[] = [];
    for (let page = 1; page <= 7; page++) {
      const res = await list(`?limit=4&page=${page}`);
      const { data, meta } = res.json();
      expect(meta.pagination).toEqual({
        page,
        limit: 4,
        total: 25,
        total_pages: 7,
        has_more: page < 7,
      });
      paged.push(...data.map((i: { id: string }) => i.id));
    }
    expect(paged).toEqual(expected);
    // The same query twice gives the same order.
    expect(await ids('?limit=100')).toEqual(expected);
  });

  test('a page past the end is 200 with no data', async () => {
    for (const query of ['?page=3', '?limit=4&page=8', '?limit=100&page=1000']) {
      const res = await list(query);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.data).toEqual([]);
      expect(body.meta.pagination).toMatchObject({ total: 25, has_more: false });
    }
  });

  test('filters by one status, or by a comma-separated list', async () => {
    const id = (i: number) => created[i]!.id;
    expect(new Set(await ids('?status=paid'))).toEqual(new Set([id(1), id(4)]));
    expect(new Set(await ids('?status=paid,failed'))).toEqual(new Set([id(1), id(4), id(5)]));
    expect(await ids('?status=expired')).toEqual([id(2)]);
    expect(await ids('?status=pending&limit=100')).toHaveLength(21);
    expect(await ids('?status=pending,paid,expired,failed&limit=100')).toEqual(newestFirst());

    const res = await list('?status=paid,expired&limit=1');
    expect(res.json().meta.pagination).toEqual({
      page: 1,
      limit: 1,
      total: 3,
      total_pages: 3,
      has_more: true,
    });
  });

  test('filters by order_id, an exact match, alone or with a status', async () => {
    const matching = created.filter((i) => i.order_id === 'ord-1').map((i) => i.id);
    expect(new Set(await ids('?order_id=ord-1'))).toEqual(new Set(matching));
    expect((await list('?order_id=ord-1')).json().meta.pagination.total).toBe(5);
    expect(await ids('?order_id=ord-')).toEqual([]);
    expect(await ids('?order_id=ORD-1')).toEqual([]);
    expect(await ids('?order_id=ord-1&status=paid')).toEqual([created[1]!.id]);
    expect((await list('?order_id=ord-1&status=paid')).json().meta.pagination.total).toBe(1);
  });

  test("never lists another project's invoices", async () => {
    const all = await ids('?limit=100');
    for (const id of otherIds) expect(all).not.toContain(id);
    expect(await ids('?order_id=ord-1&status=paid')).not.toContain(otherIds[0]);

    const theirs = await list('?limit=100', other);
    expect(theirs.json().meta.pagination.total).toBe(3);
    expect(new Set(theirs.json().data.map((i: { id: string }) => i.id))).toEqual(new Set(otherIds));
  });

  test.each([
    ['limit=0', 'limit', 'minimum'],
    ['limit=101', 'limit', 'maximum'],
    ['limit=abc', 'limit', 'type'],
    ['limit=1.5', 'limit', 'type'],
    ['page=0', 'page', 'minimum'],
    ['page=-1', 'page', 'minimum'],
    ['page=x', 'page', 'type'],
    ['cursor=abc', 'cursor', 'unknown_field'],
    ['status=open', 'status', 'enum'],
    ['status=paid,', 'status', 'enum'],
    ['status=PAID', 'status', 'enum'],
    // Query numbers are plain decimal integers (issue 15): no exponent, hex, sign, padding or spaces.
    ['limit=1e1', 'limit', 'type'],
    ['limit=0x10', 'limit', 'type'],
    ['limit=+5', 'limit', 'type'],
    ['limit=%205', 'limit', 'type'],
    ['page=00001', 'page', 'type'],
    ['page=1000001', 'page', 'maximum'],
    ['order_id=a%00', 'order_id', 'control_characters'],
    ['order_id=a%FF', 'order_id', 'invalid_unicode'],
    ['order_id=%ED%A0%80', 'order_id', 'invalid_unicode'],
  ])('refuses %s in the query', async (query, field, rule) => {
    const res = await list(`?${query}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { errors: [{ in: 'query', field, rule, message: expect.any(String) }] },
    });
    expect(res.json().error.details.errors).toHaveLength(1);
  });

  test('lists every invalid parameter at once', async () => {
    const res = await list('?limit=0&page=0&status=open&sort=asc');
    expect(res.statusCode).toBe(422);
    const errors = res.json().error.details.errors.map((e: { field: string; in: string }) => [e.in, e.field]);
    expect(errors).toEqual(
      expect.arrayContaining([
        ['query', 'limit'],
        ['query', 'page'],
        ['query', 'status'],
        ['query', 'sort'],
      ]),
    );
    expect(errors).toHaveLength(4);
  });
});
