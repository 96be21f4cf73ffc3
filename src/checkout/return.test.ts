import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  admin,
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

const clock = manualClock(new Date('2026-11-21T10:00:00.000Z'));
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ clock });
  m = await createMerchant(t.app, { name: 'Acme' });
});
afterAll(() => t.close());

const page = async (id: string, query = '') => (await t.app.inject({ url: `/pay/${id}${query}` })).body;

describe('the way back to the shop on the payment page', () => {
  test('waiting: "Cancel and return" to cancel_url, escaped; paid: "Return to {project}" with the redirect', async () => {
    const urls = {
      redirect_url: 'https://shop.example/orders/1?a=1&b="x"<y>',
      cancel_url: 'https://shop.example/cart?from=pay&x=1',
    };
    const inv = (await createInvoice(t.app, m, { amount: '5', ...urls })).json().data;
    const waiting = await page(inv.id);
    expect(waiting).toContain(
      '<a href="https://shop.example/cart?from=pay&amp;x=1" rel="noreferrer">Cancel and return</a>',
    );
    expect(waiting).not.toContain('shop.example/orders');
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
    const paid = await page(inv.id);
    expect(paid).toContain(
      'href="https://shop.example/orders/1?a=1&amp;b=&quot;x&quot;&lt;y&gt;" rel="noreferrer" data-return>Return to Acme</a>',
    );
    expect(paid).toContain('data-redirect data-seconds="5" hidden');
    expect(paid).not.toContain('Cancel and return');
    expect(paid).not.toContain('You can close this page');
  });

  test('a payer who comes back more than 10 minutes after paying gets the link, not the redirect', async () => {
    const inv = (
      await createInvoice(t.app, m, { amount: '5', redirect_url: 'https://shop.example/o/2' })
    ).json().data;
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
    clock.advance(11 * 60_000);
    const later = await page(inv.id);
    expect(later).toContain('data-return>Return to Acme</a>');
    expect(later).not.toContain('data-redirect');
  });

  test('without return URLs there is no link, and the paid view says the page may be closed', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '5' })).json().data;
    expect(await page(inv.id)).not.toContain('Cancel and return');
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-payment`, {});
    const paid = await page(inv.id);
    expect(paid).not.toContain('data-return');
    expect(paid).toContain('You can close this page.');
  });

  test('a repeated or unknown ?lang= falls back to the browser language, never an error', async () => {
    const inv = (await createInvoice(t.app, m, { amount: '5' })).json().data;
    for (const query of ['?lang=es&lang=ru', '?lang=xx', '?lang=', '?utm_source=mail']) {
      const res = await t.app.inject({ url: `/pay/${inv.id}${query}`, headers: { 'accept-language': 'tr' } });
      expect(res.statusCode, query).toBe(200);
      expect(res.body, query).toMatch(/<html lang="tr">/);
    }
  });
});
