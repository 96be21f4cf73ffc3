import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { expireDue } from './observe.js';

const clock = manualClock(new Date('2026-11-21T10:00:00.000Z'));
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ clock, env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  m = await createMerchant(t.app, { invoice_ttl_seconds: 600 });
  // Events are written only for subscribed projects; no worker runs here, so nothing is sent.
  await admin(t.app, 'POST', `/v1/admin/projects/${m.projectId}/webhook-endpoints`, {
    url: 'http://127.0.0.1:9/hook',
  });
});
afterAll(() => t.close());

const simulate = (id: string, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${id}/simulate-payment`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: body,
  });

const get = async (id: string) =>
  (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: m.auth })).json().data;

const eventsOf = (id: string) =>
  t.database.db
    .selectFrom('events')
    .select(['type', 'body'])
    .where('invoice_id', '=', id)
    .orderBy('created_at')
    .execute();

describe('an invoice through its lifecycle', () => {
  test('a new invoice has a pay address, nothing paid, and an invoice.created event', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
    expect(inv).toMatchObject({
      amount_paid: '0.00',
      paid_late: false,
      failure_reason: null,
      status: 'pending',
    });
    expect(inv.pay_address).toMatch(/^0x[0-9a-f]{40}$/);
    const events = await eventsOf(inv.id);
    expect(events.map((e) => e.type)).toEqual(['invoice.created']);
    const body = JSON.parse(events[0]!.body);
    expect(body).toMatchObject({ type: 'invoice.created', data: { invoice: inv, previous_status: null } });
    expect(body.id).toMatch(/^evt_/);
  });

  test('a simulated payment of the amount due pays it, with paid_at, tx_hash and events', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
    clock.advance(1000);
    const res = await simulate(inv.id);
    expect(res.statusCode).toBe(200);
    const paid = res.json().data;
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '10.00', paid_late: false });
    expect(paid.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(paid.paid_at).toBe(clock().toISOString());
    expect(await get(inv.id)).toEqual(paid);
    const events = await eventsOf(inv.id);
    expect(events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.payment_detected',
      'invoice.paid',
    ]);
    const detected = JSON.parse(events[1]!.body).data;
    expect(detected.payment).toEqual({
      tx_hash: paid.tx_hash,
      network: 'sandbox',
      currency: 'USDT',
      amount: '10.00',
      confirmed: true,
    });
    const paidEvent = JSON.parse(events[2]!.body).data;
    expect(paidEvent).toMatchObject({
      previous_status: 'pending',
      invoice: { status: 'paid', amount_paid: '10.00' },
    });
  });

  test('seen, then confirmed: pending with tx_hash, then paid; repeating an observation changes nothing', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '5.00' })).json().data;
    const seen = (await simulate(inv.id, { confirmed: false, tx_hash: '0xfeed' })).json().data;
    expect(seen).toMatchObject({ status: 'pending', tx_hash: '0xfeed', amount_paid: '0.00' });
    const again = (await simulate(inv.id, { confirmed: false, tx_hash: '0xfeed' })).json().data;
    expect(again.updated_at).toBe(seen.updated_at);
    const paid = (await simulate(inv.id, { confirmed: true, tx_hash: '0xfeed' })).json().data;
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '5.00', tx_hash: '0xfeed' });
    expect((await eventsOf(inv.id)).map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.payment_detected',
      'invoice.paid',
    ]);
  });

  test('partial payments with 18 decimals add up, and an over-payment stays paid', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '1.00' })).json().data;
    const part = (await simulate(inv.id, { amount: '0.400000000000000001' })).json().data;
    expect(part).toMatchObject({ status: 'pending', amount_paid: '0.400000000000000001' });
    const paid = (await simulate(inv.id, { amount: '5' })).json().data;
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '5.400000000000000001' });
  });

  test('an overdue invoice expires, a part-paid one fails as underpaid, each exactly once', async () => {
    const unpaid = (await createInvoice(t.app, m, { amount: '3.00' })).json().data;
    const partly = (await createInvoice(t.app, m, { amount: '3.00' })).json().data;
    await simulate(partly.id, { amount: '1.00' });
    clock.advance(601_000);
    let moved = 0;
    for (;;) {
      const n = await expireDue(t.database.db, { now: clock(), publicBaseUrl: 'http://paydesk.test' }, 100);
      moved += n;
      if (n < 100) break;
    }
    expect(moved).toBeGreaterThanOrEqual(2);
    expect(await get(unpaid.id)).toMatchObject({ status: 'expired' });
    expect(await get(partly.id)).toMatchObject({ status: 'failed', failure_reason: 'underpaid' });
    expect(await expireDue(t.database.db, { now: clock(), publicBaseUrl: 'http://paydesk.test' }, 100)).toBe(
      0,
    );
    expect((await eventsOf(unpaid.id)).map((e) => e.type)).toEqual(['invoice.created', 'invoice.expired']);
  });

  test('an expired invoice paid in full within 24 h is paid late', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '2.00' })).json().data;
    clock.advance(601_000);
    await expireDue(t.database.db, { now: clock(), publicBaseUrl: 'http://paydesk.test' }, 1000);
    clock.advance(3600_000);
    const paid = (await simulate(inv.id)).json().data;
    expect(paid).toMatchObject({ status: 'paid', paid_late: true, amount_paid: '2.00' });
  });

  test('a reversed seen payment returns the invoice to waiting', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '2.00' })).json().data;
    await simulate(inv.id, { confirmed: false, tx_hash: '0xdrop' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/invoices/${inv.id}/simulate-reversal`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { tx_hash: '0xdrop' },
    });
    expect(res.json().data).toMatchObject({ status: 'pending', tx_hash: null });
  });
});

describe('simulate-payment errors', () => {
  test('unknown invoice → 404; bad amount or unknown field → 422; no admin token → 401', async () => {
    expect((await simulate('inv_doesnotexist0000000000')).statusCode).toBe(404);
    const inv = (await createInvoice(t.app, m)).json().data;
    const bad = await simulate(inv.id, { amount: '-1', extra: true });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .error.details.errors.map((e: { rule: string }) => e.rule)
        .sort(),
    ).toEqual(['format', 'unknown_field']);
    const anon = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/invoices/${inv.id}/simulate-payment`,
      payload: {},
    });
    expect(anon.statusCode).toBe(401);
  });

  test('works without a body at all', async () => {
    const inv = (await createInvoice(t.app, m)).json().data;
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/invoices/${inv.id}/simulate-payment`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('paid');
  });
});
