import { afterAll, beforeAll, expect, test } from 'vitest';
import { ADMIN_TOKEN, createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';

// PAYDESK_DUST_PERCENT through the API (contract §21): the share an invoice is made with decides
// what is dust for it, shown on the invoice and never credited on its own.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_DUST_PERCENT: '5' } });
});
afterAll(() => t?.close());

const simulate = (id: string, body: object) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${id}/simulate-payment`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: body,
  });

test('at 5 %, 0.40 of a 10.00 invoice is dust: listed, not credited, nothing less is asked', async () => {
  const m = await createMerchant(t.app);
  const inv = (await createInvoice(t.app, m, { amount: '10.00' })).json().data;
  const res = await simulate(inv.id, { amount: '0.40', tx_hash: '0xdust' });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data).toMatchObject({
    status: 'pending',
    amount_paid: '0.00',
    tx_hash: null,
    payments: [{ tx_hash: '0xdust', amount: '0.40', status: 'dust' }],
    payment_methods: [{ amount_due: '10.000000' }],
  });
  // 0.50 is 5 %: no dust. Then 9.10 completes the invoice, the dust joining it.
  await simulate(inv.id, { amount: '0.50', tx_hash: '0xpart' });
  const paid = (await simulate(inv.id, { amount: '9.10', tx_hash: '0xrest' })).json().data;
  expect(paid).toMatchObject({ status: 'paid', amount_paid: '10.00' });
  expect(paid.payments.map((p: { status: string }) => p.status)).toEqual([
    'confirmed',
    'confirmed',
    'confirmed',
  ]);
});
