import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { newId } from '../ids.js';

let t: TestApp;
let m: Merchant;
let other: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
  other = await createMerchant(t.app);
});
afterAll(() => t.close());

const get = (id: string, merchant = m) =>
  t.app.inject({ url: `/v1/merchant/invoices/${encodeURIComponent(id)}`, headers: merchant.auth });

describe('GET /v1/merchant/invoices/{invoice}', () => {
  test('returns the invoice of the caller’s project', async () => {
    const created = (await createInvoice(t.app, m, { amount: '12.34', order_id: 'get-1' })).json().data;
    const res = await get(created.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: expect.any(String), data: created });
    expect(body.data).toEqual(created);
    expect(body.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });

  test("another project's invoice, an unknown id and a malformed id are all the same 404", async () => {
    const theirs = (await createInvoice(t.app, other, { amount: '1.00' })).json().data;
    const bodies = [];
    const attempts = [
      theirs.id,
      newId('inv'),
      'inv_short',
      'not-an-id',
      `prj_${theirs.id.slice(4)}`,
      `${theirs.id} `,
      'inv_✓',
      'x'.repeat(300),
      'x'.repeat(8000),
    ];
    for (const id of attempts) {
      const res = await get(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const { trace_id, ...rest } = res.json();
      expect(trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(res.headers['x-trace-id']).toBe(trace_id);
      bodies.push(rest);
    }
    expect(bodies[0]).toEqual({
      success: false,
      message: expect.any(String),
      error: { code: 'NOT_FOUND', details: {} },
    });
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    // The owner still sees it.
    expect((await get(theirs.id, other)).statusCode).toBe(200);
  });

  test('a path the router cannot decode is a 404 in the envelope too', async () => {
    for (const raw of ['%E0%A4%A', 'inv_%ZZ']) {
      const res = await t.app.inject({ url: `/v1/merchant/invoices/${raw}`, headers: m.auth });
      expect(res.statusCode, raw).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json();
      expect(body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', details: {} } });
      expect(res.headers['x-trace-id']).toBe(body.trace_id);
    }
  });
});
