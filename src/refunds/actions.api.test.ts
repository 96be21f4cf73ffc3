import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

/** Contract §22: the merchant API cancels a refund and makes a new claim link; both idempotent and audited. */
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let t: TestApp;
let m: Merchant;
let other: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
  other = await createMerchant(t.app);
});
afterAll(() => t.close());

async function newRefund(amount = '10.00') {
  const inv = (await createInvoice(t.app, m, { amount: '40.00' })).json().data;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  await t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${inv.id}/simulate-payment`,
    headers: admin,
    payload: {},
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${inv.id}/refunds`,
    headers: m.auth,
    payload: { amount },
  });
  const refund = res.json().data.refund;
  return { invoiceId: inv.id as string, id: refund.id as string, claimUrl: refund.claim_url as string };
}

const post = (path: string, who = m, key?: string, payload?: object) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${path}`,
    headers: { ...who.auth, ...(key ? { 'idempotency-key': key } : {}) },
    ...(payload ? { payload } : {}),
  });
const cancel = (r: { invoiceId: string; id: string }, who = m, key?: string) =>
  post(`${r.invoiceId}/refunds/${r.id}/cancel`, who, key);
const relink = (r: { invoiceId: string; id: string }, who = m, key?: string) =>
  post(`${r.invoiceId}/refunds/${r.id}/claim-link`, who, key);

const claim = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: new URL(url).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ method: 'sandbox:USDT', address: ADDRESS }).toString(),
  });
const refunded = async (invoiceId: string) =>
  (await t.app.inject({ url: `/v1/merchant/invoices/${invoiceId}`, headers: m.auth })).json().data
    .amount_refunded;
const audited = (action: string, target: string) =>
  t.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .where('target', 'like', `${target}%`)
    .execute();
const rules = (res: { json(): any }) => res.json().error.details.errors.map((e: { rule: string }) => e.rule);

describe('POST …/refunds/{refund}/cancel', () => {
  test('cancels a refund awaiting its address: 200 { refund }, its amount is refundable again, audited', async () => {
    const r = await newRefund();
    expect(await refunded(r.invoiceId)).toBe('10.00');
    const res = await cancel(r);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.refund).toMatchObject({ id: r.id, status: 'canceled', claim_url: null });
    expect(await refunded(r.invoiceId)).toBe('0.00');
    const [row] = await audited('refund.canceled', r.id);
    expect(row?.actor_email).toMatch(/^api_key:key_/);
    // The claim link stops working; a second cancel is refused and gives nothing back twice.
    expect((await claim(r.claimUrl)).statusCode).toBe(404);
    const again = await cancel(r);
    expect(again.statusCode).toBe(422);
    expect(rules(again)).toEqual(['not_cancelable']);
    expect(await refunded(r.invoiceId)).toBe('0.00');
  });

  test('a ready refund can be canceled too', async () => {
    const r = await newRefund();
    expect((await claim(r.claimUrl)).statusCode).toBe(303);
    expect((await cancel(r)).json().data.refund.status).toBe('canceled');
  });

  test('with an Idempotency-Key a retry answers the same, once audited; the key with another request is refused', async () => {
    const r = await newRefund();
    expect((await cancel(r, m, 'cancel-1')).statusCode).toBe(200);
    const retry = await cancel(r, m, 'cancel-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.refund.status).toBe('canceled');
    expect(await audited('refund.canceled', r.id)).toHaveLength(1);
    const other = await newRefund();
    const reused = await cancel(other, m, 'cancel-1');
    expect(rules(reused)).toEqual(['reused_with_different_request']);
  });

  test("another project's refund, another invoice's, an unknown one: NOT_FOUND; a body field: refused", async () => {
    const r = await newRefund();
    expect((await cancel(r, other)).statusCode).toBe(404);
    const elsewhere = await newRefund();
    expect((await cancel({ invoiceId: elsewhere.invoiceId, id: r.id })).statusCode).toBe(404);
    expect((await cancel({ invoiceId: r.invoiceId, id: 'ref_nope' })).statusCode).toBe(404);
    const extra = await post(`${r.invoiceId}/refunds/${r.id}/cancel`, m, undefined, { reason: 'x' });
    expect(extra.statusCode).toBe(422);
    expect((await cancel(r)).statusCode).toBe(200);
  });
});

describe('POST …/refunds/{refund}/claim-link', () => {
  test('a new link, shown once: the old one stops working, the new one works; audited', async () => {
    const r = await newRefund();
    const res = await relink(r);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().data.refund.claim_url as string;
    expect(fresh).toMatch(/^http:\/\/paydesk\.test\/refund\/[A-Za-z0-9]{43}$/);
    expect(fresh).not.toBe(r.claimUrl);
    expect((await t.app.inject({ url: new URL(r.claimUrl).pathname })).statusCode).toBe(404);
    expect((await t.app.inject({ url: new URL(fresh).pathname })).statusCode).toBe(200);
    expect(await audited('refund.claim_link_renewed', r.id)).toHaveLength(1);
    expect((await claim(fresh)).statusCode).toBe(303);
    // Once the payer gave an address, no new link.
    const late = await relink(r);
    expect(late.statusCode).toBe(422);
    expect(rules(late)).toEqual(['not_awaiting_address']);
  });

  test('a retry with its Idempotency-Key gives a working link again; the earlier one stops working', async () => {
    const r = await newRefund();
    const first = (await relink(r, m, 'link-1')).json().data.refund.claim_url;
    const retry = await relink(r, m, 'link-1');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const second = retry.json().data.refund.claim_url;
    expect((await t.app.inject({ url: new URL(first).pathname })).statusCode).toBe(404);
    expect((await t.app.inject({ url: new URL(second).pathname })).statusCode).toBe(200);
    // Claimed since: the retry answers the refund, without a link.
    expect((await claim(second)).statusCode).toBe(303);
    const after = await relink(r, m, 'link-1');
    expect(after.statusCode).toBe(200);
    expect(after.json().data.refund).toMatchObject({ status: 'ready', claim_url: null });
  });
});
