import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { watchedBuiltins } from '../../test/watched-node.js';
import { observeOne } from '../invoices/observe.js';
import { money } from '../money/money.js';

/**
 * Issue 31, contract §21 "Live and test never mix": nobody, credentials or not, pays a live invoice
 * with test money. The attack of the issue: a project that accepts `ethereum:USDT` and `sandbox:USDT`
 * (saved before the rule), a live invoice of 500.00, and `POST /pay/{id}/simulate?method=sandbox:USDT`
 * with no credentials.
 */
let t: TestApp;
let legacy: Merchant;
let test_: Merchant;
const LIVE = { network: 'ethereum', currency: 'USDT' };
const SANDBOX = { network: 'sandbox', currency: 'USDT' };

beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
  legacy = await createMerchant(t.app, { payment_methods: [LIVE], evm_xpub: TEST_XPUB });
  // What a project saved before the rule may hold: the rule refuses to save it now.
  await t.database.db
    .updateTable('projects')
    .set({ payment_methods: JSON.stringify([LIVE, SANDBOX]) })
    .where('id', '=', legacy.projectId)
    .execute();
  test_ = await createMerchant(t.app, { payment_methods: [SANDBOX] });
});
afterAll(() => t.close());

/** A live invoice of 500.00 that, as invoices made before the rule may, also lists the sandbox. */
async function liveInvoice(): Promise<string> {
  const res = await createInvoice(t.app, legacy, { amount: '500.00' });
  expect(res.statusCode, res.body).toBe(201);
  const inv = res.json().data;
  const sandbox = { ...SANDBOX, pay_address: 'sandbox_legacy', decimals: 6 };
  await t.database.db
    .updateTable('invoices')
    .set({
      payment_methods: JSON.stringify([{ ...LIVE, pay_address: inv.pay_address, decimals: 6 }, sandbox]),
    })
    .where('id', '=', inv.id)
    .execute();
  return inv.id;
}

const merchantView = async (m: Merchant, id: string) =>
  (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: m.auth })).json().data;
const eventsOf = async (id: string) =>
  (
    await t.database.db.selectFrom('events').select(['type', 'body']).where('invoice_id', '=', id).execute()
  ).map((e) => ({ type: e.type, body: JSON.parse(e.body) }));

async function unchanged(id: string) {
  const after = await merchantView(legacy, id);
  expect(after).toMatchObject({ status: 'pending', amount_paid: '0.00', livemode: true, payments: [] });
  expect((await eventsOf(id)).map((e) => e.type)).toEqual(['invoice.created']);
}

describe('a live invoice and test money', () => {
  test('the attack of issue 31: the page simulator with no credentials is 404 and moves nothing', async () => {
    const id = await liveInvoice();
    for (const query of ['?method=sandbox:USDT', '', '?method=ethereum:USDT']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/pay/${id}/simulate${query}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(res.statusCode, query).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
    await unchanged(id);
  });

  test('the page shows no "Simulate payment" button and offers only the live method', async () => {
    const id = await liveInvoice();
    const page = (await t.app.inject({ url: `/pay/${id}?method=sandbox:USDT` })).body;
    expect(page).not.toContain('data-simulate');
    expect(page).not.toContain('sandbox_legacy');
  });

  test("the operator's simulator refuses a live invoice: 422, rule live_invoice, nothing moves", async () => {
    const id = await liveInvoice();
    for (const path of ['simulate-payment', 'simulate-reversal']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/admin/invoices/${id}/${path}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: path === 'simulate-payment' ? { currency: 'USDT' } : { tx_hash: '0xabc' },
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error.details.errors).toEqual([
        expect.objectContaining({ field: 'id', rule: 'live_invoice' }),
      ]);
    }
    await unchanged(id);
  });

  test('a new invoice of a project that still mixes offers only its live methods', async () => {
    const res = await createInvoice(t.app, legacy, { amount: '500.00' });
    const inv = res.json().data;
    expect(inv.livemode).toBe(true);
    expect(inv.payment_methods.map((m: { network: string }) => m.network)).toEqual(['ethereum']);
    const named = await createInvoice(t.app, legacy, { amount: '5.00', network: 'sandbox' });
    expect(named.statusCode).toBe(422);
    expect(named.json().error.details.errors[0]).toMatchObject({ field: 'network', rule: 'not_accepted' });
  });
});

describe('a refund of a live invoice', () => {
  test('is live, and its claim page never offers the test method the invoice still lists', async () => {
    const id = await liveInvoice();
    // Paid with real money on the live network (what a chain watcher reports).
    await observeOne(
      t.app.db,
      id,
      {
        kind: 'payment',
        txHash: `0x${'ab'.repeat(32)}`,
        network: 'ethereum',
        currency: 'USDT',
        amount: money('500.00'),
        confirmed: true,
      },
      { now: new Date(), publicBaseUrl: t.app.config.publicBaseUrl },
    );
    const made = await t.app.inject({
      method: 'POST',
      url: `/v1/merchant/invoices/${id}/refunds`,
      headers: legacy.auth,
      payload: { amount: '10.00' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const refund = made.json().data.refund;
    expect(refund.livemode).toBe(true);
    const path = new URL(refund.claim_url).pathname;
    const page = (await t.app.inject({ url: path })).body;
    expect(page).toContain('USDT on Ethereum');
    expect(page).not.toContain('sandbox:USDT');
    const claim = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'method=sandbox%3AUSDT&address=sandbox_payer',
    });
    expect(claim.statusCode).toBe(422);
    const after = await t.app.inject({ url: `/v1/merchant/invoices/${id}/refunds`, headers: legacy.auth });
    expect(after.json().data).toMatchObject([{ status: 'awaiting_address', network: null, livemode: true }]);
  });
});

describe('a test invoice', () => {
  test('is livemode false, and the page simulator still pays it, as before', async () => {
    const inv = (await createInvoice(t.app, test_, { amount: '10.00' })).json().data;
    expect(inv.livemode).toBe(false);
    const res = await t.app.inject({ method: 'POST', url: `/pay/${inv.id}/simulate` });
    expect(res.statusCode).toBe(303);
    const after = await merchantView(test_, inv.id);
    expect(after).toMatchObject({ status: 'paid', amount_paid: '10.00', livemode: false });
    const events = await eventsOf(inv.id);
    expect(events.map((e) => [e.type, e.body.livemode, e.body.data.invoice.livemode])).toEqual([
      ['invoice.created', false, false],
      ['invoice.payment_detected', false, false],
      ['invoice.paid', false, false],
    ]);
  });
});
