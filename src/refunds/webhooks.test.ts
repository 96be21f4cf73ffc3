import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin } from '../../test/app.js';
import { type DeliveryHarness, startDeliveryHarness } from '../../test/webhooks.js';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let h: DeliveryHarness;
beforeAll(async () => {
  h = await startDeliveryHarness();
});
afterAll(() => h.close());

describe('refund events', () => {
  test('refund.ready reaches an endpoint subscribed to it, signed like every event', async () => {
    const r = await h.receiver();
    const { m, endpoint } = await h.merchantWith(r, ['refund.ready']);
    const invoiceId = await h.newInvoice(m);
    await admin(h.t.app, 'POST', `/v1/admin/invoices/${invoiceId}/simulate-payment`, {});
    const created = await h.t.app.inject({
      method: 'POST',
      url: `/v1/merchant/invoices/${invoiceId}/refunds`,
      headers: m.auth,
      payload: { amount: '4.00' },
    });
    const refund = created.json().data.refund;
    await h.t.app.inject({
      method: 'POST',
      url: new URL(refund.claim_url).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ method: 'sandbox:USDT', address: ADDRESS }).toString(),
    });
    h.wake();
    const [req] = await r.waitFor(1);
    const payload = new Webhook(endpoint.secret).verify(
      req?.body ?? '',
      req?.headers as Record<string, string>,
    );
    expect(payload).toMatchObject({
      type: 'refund.ready',
      data: {
        refund: { id: refund.id, invoice_id: invoiceId, status: 'ready', address: ADDRESS, claim_url: null },
        previous_status: 'awaiting_address',
        token: 'USDT',
        token_amount: '4.000000',
      },
    });
  });
});
