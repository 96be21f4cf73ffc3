import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

const clock = manualClock();
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ clock });
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const simulate = (id: string, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${id}/simulate-payment`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: body,
  });

const refund = (id: string, body: object = {}, who = m) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${id}/refunds`,
    headers: who.auth,
    payload: body,
  });

const refunds = (id: string, who = m) =>
  t.app.inject({ url: `/v1/merchant/invoices/${id}/refunds`, headers: who.auth });

const invoice = async (id: string) =>
  (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: m.auth })).json().data;

async function paidInvoice(amount = '40.00', paid = amount) {
  const inv = (await createInvoice(t.app, m, { amount })).json().data;
  expect((await simulate(inv.id, { amount: paid })).statusCode).toBe(200);
  return inv.id as string;
}

function rule(res: { statusCode: number; json(): any }) {
  expect(res.statusCode).toBe(422);
  return res.json().error.details.errors.map((e: { rule: string }) => e.rule);
}

describe('a refund of a paid invoice', () => {
  test('without an amount refunds all that was paid, with a single-use claim link shown once', async () => {
    const id = await paidInvoice('40.00');
    const res = await refund(id, { reason: 'Order returned' });
    expect(res.statusCode).toBe(201);
    const r = res.json().data.refund;
    expect(r).toEqual({
      id: expect.stringMatching(/^ref_[A-Za-z0-9]{24}$/),
      invoice_id: id,
      amount: '40.00',
      currency: 'USDT',
      livemode: false,
      reason: 'Order returned',
      status: 'awaiting_address',
      claim_url: expect.stringMatching(/^http:\/\/paydesk\.test\/refund\/[A-Za-z0-9]{43}$/),
      network: null,
      address: null,
      tx_hash: null,
      created_at: clock().toISOString(),
      updated_at: clock().toISOString(),
    });
    // The invoice stays paid and shows what was refunded, and the refund itself (contract §18).
    expect(await invoice(id)).toMatchObject({
      status: 'paid',
      amount_paid: '40.00',
      amount_refunded: '40.00',
      refunds: [
        {
          id: r.id,
          amount: '40.00',
          status: 'awaiting_address',
          network: null,
          address: null,
          tx_hash: null,
          created_at: clock().toISOString(),
        },
      ],
    });
    // The list shows it without its claim link: only a hash of the token is stored.
    const listed = (await refunds(id)).json().data;
    expect(listed).toEqual([{ ...r, claim_url: null }]);
    const stored = await t.database.db
      .selectFrom('refunds')
      .selectAll()
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    expect(stored.claim_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.claim_url).not.toContain(stored.claim_token_hash);
  });

  test('a partial refund, then a second one up to what is left, then nothing more', async () => {
    const id = await paidInvoice('40.00');
    expect((await refund(id, { amount: '15.50' })).json().data.refund.amount).toBe('15.50');
    clock.advance(1000);
    const second = await refund(id);
    expect(second.json().data.refund.amount).toBe('24.50');
    expect((await invoice(id)).amount_refunded).toBe('40.00');
    expect(rule(await refund(id, { amount: '0.01' }))).toEqual(['exceeds_paid']);
    expect(rule(await refund(id))).toEqual(['exceeds_paid']);
    expect((await refunds(id)).json().data.map((r: { amount: string }) => r.amount)).toEqual([
      '15.50',
      '24.50',
    ]);
  });

  test('a refund above what is left is refused, and says how much is left', async () => {
    const id = await paidInvoice('40.00');
    await refund(id, { amount: '30.00' });
    const res = await refund(id, { amount: '10.01' });
    expect(rule(res)).toEqual(['exceeds_paid']);
    expect(res.json().error.details.errors[0]).toMatchObject({ in: 'body', field: 'amount' });
    expect(res.json().message).toContain('10.00 USDT');
    expect((await refund(id, { amount: '10.00' })).statusCode).toBe(201);
  });

  test('two refunds decided at once cannot both pass: the invoice row is locked', async () => {
    const id = await paidInvoice('40.00');
    const answers = await Promise.all([refund(id, { amount: '30.00' }), refund(id, { amount: '30.00' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    expect((await invoice(id)).amount_refunded).toBe('30.00');
  });

  test('an over-payment can be refunded on its own, by its amount', async () => {
    const id = await paidInvoice('40.00', '45.25');
    const inv = await invoice(id);
    expect(inv).toMatchObject({ status: 'paid', amount: '40.00', amount_paid: '45.25' });
    const res = await refund(id, { amount: '5.25', reason: 'over-payment' });
    expect(res.json().data.refund).toMatchObject({ amount: '5.25', status: 'awaiting_address' });
    expect((await invoice(id)).amount_refunded).toBe('5.25');
  });

  test('an underpaid (failed) invoice can be refunded what was paid', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '40.00' })).json().data;
    clock.advance(2 * 3600_000);
    await simulate(inv.id, { amount: '12.00' });
    expect(await invoice(inv.id)).toMatchObject({ status: 'failed', amount_paid: '12.00' });
    expect(rule(await refund(inv.id, { amount: '12.01' }))).toEqual(['exceeds_paid']);
    expect((await refund(inv.id)).json().data.refund.amount).toBe('12.00');
  });

  test('money after close is refundable on top of what was paid, from an expired invoice too', async () => {
    const id = await paidInvoice('40.00');
    await simulate(id, { amount: '5.00' }); // the invoice is paid: this is money after close
    expect(await invoice(id)).toMatchObject({ status: 'paid', amount_paid: '40.00' });
    expect(rule(await refund(id, { amount: '45.01' }))).toEqual(['exceeds_paid']);
    expect((await refund(id)).json().data.refund.amount).toBe('45.00');

    const inv = (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
    clock.advance(26 * 3600_000); // past the deadline and its 24 h late window
    await simulate(inv.id, { amount: '3.00' });
    expect(await invoice(inv.id)).toMatchObject({ status: 'expired', amount_paid: '0.00' });
    expect((await invoice(inv.id)).payments).toMatchObject([{ amount: '3.00', status: 'after_close' }]);
    expect((await refund(inv.id)).json().data.refund.amount).toBe('3.00');
  });
});

describe('refusals', () => {
  test('a pending invoice, or an expired one that received nothing, cannot be refunded', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
    const res = await refund(inv.id);
    expect(rule(res)).toEqual(['not_refundable']);
    expect(res.json().error.details.errors[0]).toMatchObject({ in: 'path', field: 'invoice' });
    clock.advance(2 * 3600_000);
    await simulate(inv.id, { amount: '0.05', confirmed: false }); // dust, within the late window
    expect(await invoice(inv.id)).toMatchObject({ status: 'expired' });
    expect(rule(await refund(inv.id))).toEqual(['not_refundable']);
  });

  test('amounts follow the invoice grammar; unknown fields are refused', async () => {
    const id = await paidInvoice('40.00');
    expect(rule(await refund(id, { amount: '1.001' }))).toEqual(['decimal_places']);
    expect(rule(await refund(id, { amount: 5 }))).toEqual(['type']);
    expect(rule(await refund(id, { amount: '0' }))).toEqual(['positive']);
    expect(rule(await refund(id, { extra: true }))).toEqual(['unknown_field']);
    expect(rule(await refund(id, { reason: 'x'.repeat(501) }))).toEqual(['max_length']);
    expect((await invoice(id)).amount_refunded).toBe('0.00');
  });

  test("another account's invoice, an unknown id and a malformed id are all NOT_FOUND", async () => {
    const id = await paidInvoice('40.00');
    const other = await createMerchant(t.app);
    for (const res of [
      await refund(id, {}, other),
      await refunds(id, other),
      await refund('inv_000000000000000000000000'),
      await refunds('nonsense'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await invoice(id)).amount_refunded).toBe('0.00');
  });
});

describe('an Idempotency-Key on a refund create', () => {
  const keyed = (id: string, key: string, body: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/merchant/invoices/${id}/refunds`,
      headers: { ...m.auth, 'idempotency-key': key },
      payload: body,
    });
  const claimPage = (url: string) => t.app.inject({ url: new URL(url).pathname });

  test('a retry answers the refund it made, with a new claim link; the lost one stops working', async () => {
    const id = await paidInvoice('30.00');
    const first = await keyed(id, `refund-${id}`, { amount: '10.00' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await keyed(id, `refund-${id}`, { amount: '10' });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const [a, b] = [first.json().data.refund, retry.json().data.refund];
    expect(b.id).toBe(a.id);
    expect(b.claim_url).not.toBe(a.claim_url);
    expect((await claimPage(b.claim_url)).statusCode).toBe(200);
    expect((await claimPage(a.claim_url)).statusCode).toBe(404);
    // One refund, counted once.
    expect((await refunds(id)).json().data).toHaveLength(1);
    expect((await invoice(id)).amount_refunded).toBe('10.00');
  });

  test('the same key with another request is refused, and nothing is made', async () => {
    const id = await paidInvoice('30.00');
    expect((await keyed(id, `other-${id}`, { amount: '5.00' })).statusCode).toBe(201);
    const res = await keyed(id, `other-${id}`, { amount: '6.00' });
    expect(rule(res)).toEqual(['reused_with_different_request']);
    expect((await refunds(id)).json().data).toHaveLength(1);
  });

  test('two creates with one key at once make one refund', async () => {
    const id = await paidInvoice('30.00');
    const answers = await Promise.all([keyed(id, `twice-${id}`), keyed(id, `twice-${id}`)]);
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(new Set(answers.map((r) => r.json().data.refund.id)).size).toBe(1);
    expect((await refunds(id)).json().data).toHaveLength(1);
    expect((await invoice(id)).amount_refunded).toBe('30.00');
  });

  test('a key is kept 24 hours: after that, it makes a new refund', async () => {
    const id = await paidInvoice('30.00');
    const first = (await keyed(id, `day-${id}`, { amount: '1.00' })).json().data.refund;
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = await keyed(id, `day-${id}`, { amount: '1.00' });
    expect(later.statusCode).toBe(201);
    expect(later.json().data.refund.id).not.toBe(first.id);
  });
});
