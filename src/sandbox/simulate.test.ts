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

const paymentsOf = (id: string) =>
  t.database.db.selectFrom('payments').select(['amount', 'status']).where('invoice_id', '=', id).execute();

describe('simulated payments without an amount pay what is still due, decided under the lock', () => {
  test('two at once, through the API, pay the invoice once', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '40.00' })).json().data;
    const answers = await Promise.all([simulate(inv.id), simulate(inv.id)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.json().data.status)).toEqual(['paid', 'paid']);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
    const stored = await t.app.inject({ url: `/v1/merchant/invoices/${inv.id}`, headers: m.auth });
    expect(stored.json().data).toMatchObject({ status: 'paid', amount_paid: '40.00' });
  });

  test('two presses of the page button at once pay the invoice once', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '40.00' })).json().data;
    const press = () => t.app.inject({ method: 'POST', url: `/pay/${inv.id}/simulate` });
    const answers = await Promise.all([press(), press(), press()]);
    expect(answers.map((a) => a.statusCode)).toEqual([303, 303, 303]);
    expect(await paymentsOf(inv.id)).toEqual([{ amount: '40.000000000000000000', status: 'confirmed' }]);
  });

  test('a payment still confirming counts as on its way: nothing more is due, nothing more is paid', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '40.00' })).json().data;
    await simulate(inv.id, { confirmed: false, tx_hash: '0xonitsway' });
    const again = await simulate(inv.id);
    expect(again.statusCode).toBe(200);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
    // Confirming the payment on its way pays the invoice: 40.00, not 80.00.
    const confirmed = await simulate(inv.id, { confirmed: true, tx_hash: '0xonitsway' });
    expect(confirmed.json().data).toMatchObject({ status: 'paid', amount_paid: '40.00' });
  });

  test('after a part-payment, the default pays the rest', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
    await simulate(inv.id, { amount: '4.00' });
    const rest = await simulate(inv.id);
    expect(rest.json().data).toMatchObject({ status: 'paid', amount_paid: '10.00' });
  });
});

describe('a sandbox token the invoice does not accept (contract §15)', () => {
  test('is recorded as unaccepted and announced, never credited, as a chain watcher would', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '15.00' })).json().data; // the project takes USDT
    const res = await simulate(inv.id, { currency: 'USDC' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'pending',
      amount_paid: '0.00',
      tx_hash: null,
      payments: [{ network: 'sandbox', currency: 'USDC', amount: '15.00', status: 'unaccepted' }],
    });
    const events = await t.database.db
      .selectFrom('events')
      .select('type')
      .where('invoice_id', '=', inv.id)
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(['invoice.created', 'invoice.payment_unaccepted']);
    // The accepted token still pays all of it.
    const paid = await simulate(inv.id);
    expect(paid.json().data).toMatchObject({ status: 'paid', amount_paid: '15.00' });
  });
});
