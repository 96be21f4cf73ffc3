import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createInvoice, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { inviteAndAccept, merchantWithOwner, signIn } from '../../test/dashboard.js';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const clock = manualClock(new Date('2026-11-23T10:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock });
});
afterAll(() => t.close());

const secretOn = (html: string, id: string) =>
  new RegExp(`id="${id}" type="text" readonly value="([^"]+)"`).exec(html)?.[1];

async function paidInvoice(m: Parameters<typeof createInvoice>[1], amount = '30.00') {
  const inv = (await createInvoice(t.app, m, { amount })).json().data;
  await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
  return inv.id as string;
}

const claim = (claimUrl: string) =>
  t.app.inject({
    method: 'POST',
    url: new URL(claimUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ method: 'sandbox:USDT', address: ADDRESS }).toString(),
  });

describe('refunds in the dashboard', () => {
  test('"Refund" on a paid invoice shows the claim link once; the payer claims it; it waits with a QR code, a wallet link and a CSV row; audited', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'refunds@shop.example');
    const id = await paidInvoice(m);
    const page = await owner.get(`/dashboard/invoices/${id}`);
    expect(page.body).toContain('>Refund</button>');
    expect(page.body).toContain('Up to 30.00 USDT is left to refund');

    const posted = await owner.post(`/dashboard/invoices/${id}/refunds`, {
      amount: '12.00',
      reason: 'damaged',
    });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toMatch(/^\/dashboard\/refunds\/ref_[A-Za-z0-9]+\/created\?form=/);
    const created = await owner.follow(posted);
    const link = secretOn(created.body, 'claim-link');
    expect(link).toMatch(/^http:\/\/paydesk\.test\/refund\/[A-Za-z0-9]{43}$/);
    const again = await owner.follow(posted);
    expect(again.body).not.toContain(link as string);
    expect(again.body).toContain('cannot be shown again');

    const detail = await owner.get(`/dashboard/invoices/${id}`);
    expect(detail.body).toContain('12.00 USDT');
    expect(detail.body).toContain('awaiting_address');
    expect(detail.body).toContain('Up to 18.00 USDT is left to refund');
    expect((await owner.get('/dashboard/refunds')).body).toContain('No refund is waiting.');

    expect((await claim(link as string)).statusCode).toBe(303);
    const waiting = await owner.get('/dashboard/refunds');
    expect(waiting.body).toContain(ADDRESS);
    expect(waiting.body).toContain('12.00 USDT');
    expect(waiting.body).toMatch(/<svg class="qr"[^>]*aria-label="QR code to send 12.00 USDT to 0x5aAe/);
    expect(waiting.body).toContain('>Open in wallet</a>');
    const csv = (await owner.get('/dashboard/refunds/export.csv')).body.split('\r\n');
    expect(csv[0]).toBe('network,token,address,token_amount,refund_id,invoice_id,amount,currency,ready_at');
    expect(csv[1]).toMatch(
      new RegExp(
        `^sandbox,USDT,${ADDRESS},12.00,ref_[A-Za-z0-9]+,${id},12.00,USDT,2026-11-23T10:00:00.000Z$`,
      ),
    );
    // A Safe batch is for EVM networks only: none is offered for the sandbox, and one asked for is refused.
    expect(waiting.body).not.toContain('Safe batch');
    const safe = (network: string) => owner.get(`/dashboard/refunds/export.safe.json?network=${network}`);
    for (const [network, message] of [
      ['sandbox', 'The sandbox has no chain and no Safe'],
      ['nowhere', 'No network is named nowhere'],
    ]) {
      const res = await safe(network as string);
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain(message);
    }
    const team = await owner.get('/dashboard/team');
    expect(team.body).toContain('refund.created');
  });

  test('"Cancel" gives the amount back; a refund above what is left is refused; the invoice CSV shows the refunded total', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'cancel@shop.example');
    const id = await paidInvoice(m, '20.00');
    await owner.post(`/dashboard/invoices/${id}/refunds`, { amount: '', reason: '' });
    const over = await owner.post(`/dashboard/invoices/${id}/refunds`, { amount: '0.01', reason: '' });
    expect(over.statusCode).toBe(422);
    expect(over.body).toContain('data-rule="exceeds_paid"');
    // Text that is no amount is said so on the form, never a server error.
    for (const amount of ['ten', '1.0000000000000000001', '-5']) {
      const odd = await owner.post(`/dashboard/invoices/${id}/refunds`, { amount, reason: '' });
      expect(odd.statusCode).toBe(422);
    }
    const page = await owner.get(`/dashboard/invoices/${id}`);
    const ref = /\/dashboard\/refunds\/(ref_[A-Za-z0-9]+)\/cancel/.exec(page.body)?.[1];
    const csvBefore = (await owner.get('/dashboard/invoices/export.csv')).body;
    expect(csvBefore.split('\r\n')[0]?.endsWith(',amount_refunded')).toBe(true);
    expect(csvBefore).toMatch(new RegExp(`${id},.*,20\\.00\\r\\n`));
    const canceled = await owner.post(`/dashboard/refunds/${ref}/cancel`, {
      back: `/dashboard/invoices/${id}`,
    });
    expect(canceled.headers.location).toBe(`/dashboard/invoices/${id}?canceled=1`);
    const after = await owner.follow(canceled);
    expect(after.body).toContain('Refund canceled.');
    expect(after.body).toContain('canceled');
    expect(after.body).toContain('Up to 20.00 USDT is left to refund');
    // A canceled refund cannot be canceled again.
    const twice = await owner.post(`/dashboard/refunds/${ref}/cancel`, { back: '/dashboard/refunds' });
    expect(twice.statusCode).toBe(422);
    expect((await owner.get('/dashboard/team')).body).toContain('refund.canceled');
  });

  test('"New claim link" shows a new link once; the old one stops working; a claimed refund has none, nor a Cancel once sent', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'relink@shop.example');
    const id = await paidInvoice(m);
    const posted = await owner.post(`/dashboard/invoices/${id}/refunds`, { amount: '4.00', reason: '' });
    const old = secretOn((await owner.follow(posted)).body, 'claim-link') as string;
    const page = await owner.get(`/dashboard/invoices/${id}`);
    const ref = /\/dashboard\/refunds\/(ref_[A-Za-z0-9]+)\/claim-link/.exec(page.body)?.[1];
    expect(page.body).toContain(`aria-label="New claim link for refund ${ref}"`);
    const renewed = await owner.post(`/dashboard/refunds/${ref}/claim-link`);
    expect(renewed.statusCode).toBe(303);
    const fresh = secretOn((await owner.follow(renewed)).body, 'claim-link') as string;
    expect(fresh).not.toBe(old);
    expect((await claim(old)).statusCode).toBe(404);
    expect((await claim(fresh)).statusCode).toBe(303);
    const after = (await owner.get(`/dashboard/invoices/${id}`)).body;
    expect(after).not.toContain('New claim link');
    expect(after).toContain(`aria-label="Cancel refund ${ref}"`);
    expect((await owner.post(`/dashboard/refunds/${ref}/claim-link`)).statusCode).toBe(422);
    expect((await owner.get('/dashboard/team')).body).toContain('refund.claim_link_renewed');
  });

  test('a viewer sees the refunds but cannot refund or cancel; another account cannot reach them', async () => {
    const { m, owner } = await merchantWithOwner(t.app, 'owner2@shop.example');
    await inviteAndAccept(t.app, m.accountId, 'viewer@shop.example', 'viewer');
    const viewer = await signIn(t.app, 'viewer@shop.example');
    const id = await paidInvoice(m);
    await owner.post(`/dashboard/invoices/${id}/refunds`, { amount: '5.00', reason: '' });
    const page = await viewer.get(`/dashboard/invoices/${id}`);
    expect(page.body).toContain('5.00 USDT');
    expect(page.body).not.toContain('>Refund</button>');
    expect(page.body).not.toContain('>Cancel</button>');
    const refused = await viewer.post(`/dashboard/invoices/${id}/refunds`, { amount: '1.00', reason: '' });
    expect(refused.statusCode).toBe(404);
    const ref = /ref_[A-Za-z0-9]{24}/.exec(page.body)?.[0];
    expect(
      (await viewer.post(`/dashboard/refunds/${ref}/cancel`, { back: '/dashboard/refunds' })).statusCode,
    ).toBe(404);
    const stranger = (await merchantWithOwner(t.app, 'stranger@shop.example')).owner;
    expect(
      (await stranger.post(`/dashboard/refunds/${ref}/cancel`, { back: '/dashboard/refunds' })).statusCode,
    ).toBe(404);
    expect(
      (await stranger.post(`/dashboard/invoices/${id}/refunds`, { amount: '1.00', reason: '' })).statusCode,
    ).toBe(404);
    expect((await owner.get(`/dashboard/invoices/${id}`)).body).toContain(
      'Up to 25.00 USDT is left to refund',
    );
  });
});
