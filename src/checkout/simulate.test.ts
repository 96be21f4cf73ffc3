import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const newInvoice = async () => (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
// What a browser sends when the form is submitted without JavaScript.
const submit = (id: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/pay/${id}/simulate`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
      ...headers,
    },
    payload: '',
  });
const merchantView = async (id: string) =>
  (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: m.auth })).json().data;

describe('POST /pay/{id}/simulate (the "Simulate payment" button)', () => {
  test('pays the invoice through the simulator and redirects back to the page with 303', async () => {
    const inv = await newInvoice();
    const res = await submit(inv.id);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`../${inv.id}`);
    expect(new URL(res.headers.location as string, `http://x/pay/${inv.id}/simulate`).pathname).toBe(
      `/pay/${inv.id}`,
    );
    const after = await merchantView(inv.id);
    expect(after).toMatchObject({
      status: 'paid',
      amount_paid: '10.00',
      tx_hash: expect.stringMatching(/^0x/),
    });
    const page = await t.app.inject({ url: `/pay/${inv.id}` });
    expect(page.body).toContain('data-state="paid"');
  });

  test('does not pay again an invoice whose payment is on its way: it shows the detected view', async () => {
    const inv = await newInvoice();
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {
      confirmed: false,
      tx_hash: '0xonitsway',
    });
    expect((await submit(inv.id)).statusCode).toBe(303);
    const payments = await t.database.db
      .selectFrom('payments')
      .select('tx_hash')
      .where('invoice_id', '=', inv.id)
      .execute();
    expect(payments).toEqual([{ tx_hash: '0xonitsway' }]);
    expect((await merchantView(inv.id)).status).toBe('pending');
  });

  test('works without a body or Content-Type, as a script may post it', async () => {
    const inv = await newInvoice();
    const res = await t.app.inject({ method: 'POST', url: `/pay/${inv.id}/simulate` });
    expect(res.statusCode).toBe(303);
    expect((await merchantView(inv.id)).status).toBe('paid');
  });

  test('does nothing to an invoice that is no longer open: a second press only shows the state', async () => {
    const inv = await newInvoice();
    await submit(inv.id);
    const paidAt = (await merchantView(inv.id)).paid_at;
    const again = await submit(inv.id);
    expect(again.statusCode).toBe(303);
    const after = await merchantView(inv.id);
    expect(after).toMatchObject({ status: 'paid', amount_paid: '10.00', paid_at: paidAt });
  });

  test('does not exist off the sandbox network: an HTML 404, and nothing is paid', async () => {
    const inv = await newInvoice();
    await t.database.db
      .updateTable('invoices')
      .set({
        network: 'othernet',
        payment_methods: JSON.stringify([
          { network: 'othernet', currency: 'USDT', pay_address: inv.pay_address, decimals: 6 },
        ]),
      })
      .where('id', '=', inv.id)
      .execute();
    const res = await submit(inv.id);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await merchantView(inv.id)).status).toBe('pending');
    const page = await t.app.inject({ url: `/pay/${inv.id}` });
    expect(page.body).not.toContain('Simulate payment');
    expect(page.body).toContain('>othernet</p>');
  });

  test('an unknown invoice is an HTML 404', async () => {
    const res = await submit('inv_unknown0000000000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Payment page not found');
  });

  test('refuses what a browser marks as cross-site, so another site cannot press the button', async () => {
    const inv = await newInvoice();
    const res = await submit(inv.id, { 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await merchantView(inv.id)).status).toBe('pending');
  });

  test('refuses form fields it does not know, with an HTML page', async () => {
    const inv = await newInvoice();
    const res = await t.app.inject({
      method: 'POST',
      url: `/pay/${inv.id}/simulate`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'amount=1000',
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await merchantView(inv.id)).status).toBe('pending');
  });
});
