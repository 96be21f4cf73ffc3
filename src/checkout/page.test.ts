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
import { money } from '../money/money.js';
import { paymentRequest } from '../networks/payment-request.js';
import { CONTENT_SECURITY_POLICY } from '../web/headers.js';
import { addressGroups } from './page.js';

const clock = manualClock();
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ clock });
  m = await createMerchant(t.app, {
    name: 'Shop <script>alert("pwned")</script> & Co',
    invoice_ttl_seconds: 60,
  });
});
afterAll(() => t.close());

const newInvoice = async () =>
  (
    await createInvoice(t.app, m, {
      amount: '12.50',
      order_id: 'order-secret-7',
      metadata: { note: 'internal-x' },
    })
  ).json().data;
const page = (id: string) => t.app.inject({ url: `/pay/${id}` });
const pay = (id: string, body: object = {}) =>
  admin(t.app, 'POST', `/v1/admin/invoices/${id}/simulate-payment`, body);
const stateOf = (body: string) => /data-state="(\w+)"/.exec(body)?.[1];

describe('GET /pay/{id}', () => {
  test('shows the project, amount, network, address, QR code and countdown of an open invoice', async () => {
    const inv = await newInvoice();
    const res = await page(inv.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(stateOf(res.body)).toBe('waiting');
    expect(res.body).toContain(
      '<span class="amount-value" id="pay-amount">12.50</span> <span class="amount-currency">USDT</span>',
    );
    expect(res.body).toContain('>Sandbox</p>');
    expect(res.body).toContain(
      `<code class="address" id="pay-address">${addressGroups(inv.pay_address)}</code>`,
    );
    expect(res.body).toContain('data-copy="pay-address"');
    expect(res.body).toContain('data-copy="pay-amount" data-copy-value="12.50"');
    expect(res.body).toContain(`href="sandbox:${inv.pay_address}?amount=12.50&amp;currency=USDT"`);
    expect(res.body).toMatch(/<svg class="qr"[^>]*role="img"/);
    expect(res.body).toContain('data-countdown>01:00</time>');
    expect(res.body).toContain(
      '<button type="submit" class="button button-primary">Simulate payment</button>',
    );
    expect(res.body).toContain('<noscript>');
  });

  test('escapes the project name everywhere it appears', async () => {
    const res = await page((await newInvoice()).id);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).toContain('Shop &lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; Co');
  });

  test('holds no merchant-internal data, no inline script and no style attribute', async () => {
    const res = await page((await newInvoice()).id);
    // The order id is the payer's reference too, shown under the merchant's name (issue 33); the
    // metadata and the project's internals never are.
    expect(res.body).not.toMatch(/internal-x|prj_|acct_|svc_secret|metadata/);
    // The only script element without src is inert data (the script's messages), never code.
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")/);
    expect(res.body).not.toMatch(/\sstyle=|<style|\son\w+=/i);
  });

  test('sends the strict security headers', async () => {
    const res = await page((await newInvoice()).id);
    expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('carries in the QR code the payment request for the amount still due', async () => {
    const inv = await newInvoice();
    await pay(inv.id, { amount: '2.50' });
    const res = await page(inv.id);
    // The headline is what is left to send, not the invoice's total.
    expect(res.body).toContain('<p class="summary-label">Remaining to pay</p>');
    expect(res.body).toContain('<span class="amount-value" id="pay-amount">10.00</span>');
    expect(res.body).toContain('Invoice total 12.50 USDT, of which 2.50 USDT received');
    expect(res.body).toContain('<strong>10.00 USDT</strong>');
    const request = paymentRequest(
      { network: 'sandbox', currency: 'USDT', pay_address: inv.pay_address, amount: money('10.00') },
      t.app.config.networks,
    );
    expect(res.body).toContain(`aria-label="QR code to pay 10.00 USDT to ${inv.pay_address}"`);
    expect(request).toBe(`sandbox:${inv.pay_address}?amount=10.00&currency=USDT`);
  });

  test('renders a view for each state: detected, paid, expired (at the deadline, before the worker), failed', async () => {
    const detected = await newInvoice();
    await pay(detected.id, { confirmed: false });
    const paid = await newInvoice();
    await pay(paid.id);
    const failed = await newInvoice();
    await pay(failed.id, { amount: '1.00' });
    const expired = await newInvoice();
    expect(stateOf((await page(detected.id)).body)).toBe('detected');
    const paidPage = (await page(paid.id)).body;
    expect(stateOf(paidPage)).toBe('paid');
    expect(paidPage).toContain('Payment received');
    expect(paidPage).not.toContain('Simulate payment');
    expect(paidPage).not.toContain('class="qr"');
    clock.advance(61_000);
    const expiredPage = (await page(expired.id)).body;
    expect(stateOf(expiredPage)).toBe('expired');
    expect(expiredPage).not.toContain('pay-address');
    // A payment seen before the deadline holds the invoice open: still detected, no countdown.
    const held = (await page(detected.id)).body;
    expect(stateOf(held)).toBe('detected');
    expect(held).toContain('Waiting for confirmation');
    expect(held).not.toContain('data-countdown');
    await pay(failed.id, { amount: '1.00' }); // arrives late: the invoice fails as underpaid
    const failedPage = (await page(failed.id)).body;
    expect(stateOf(failedPage)).toBe('failed');
    expect(failedPage).toContain('Payment incomplete');
  });

  test('a part-paid invoice past its deadline, before any worker ran, is failed (underpaid), never expired', async () => {
    const inv = await newInvoice();
    await pay(inv.id, { amount: '4.00' });
    clock.advance(61_000);
    const body = (await page(inv.id)).body;
    expect(stateOf(body)).toBe('failed');
    expect(body).toContain('Payment incomplete');
    expect(body).not.toContain('Invoice expired');
    const status = await t.app.inject({ url: `/pay/${inv.id}/status` });
    expect(status.json().data).toMatchObject({ status: 'failed', amount_paid: '4.00' });
    // The stored status moves only when the expiry job passes (none runs here): the page does not wait.
    const stored = await t.app.inject({ url: `/v1/merchant/invoices/${inv.id}`, headers: m.auth });
    expect(stored.json().data.status).toBe('pending');
  });

  test('a confirmed part-payment that is reversed fails the invoice: the reversed view', async () => {
    const inv = await newInvoice();
    const paid = await pay(inv.id, { amount: '1.00' });
    await admin(t.app, 'POST', `/v1/admin/invoices/${inv.id}/simulate-reversal`, { tx_hash: paid.tx_hash });
    const body = (await page(inv.id)).body;
    expect(stateOf(body)).toBe('failed');
    expect(body).toContain('Payment reversed');
  });

  test('HEAD answers like GET without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `/pay/${(await newInvoice()).id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe('');
  });
});

describe('pages that do not exist', () => {
  test.each([
    '/pay/inv_unknown0000000000000000000',
    '/pay/not-an-id',
    `/pay/inv_${'a'.repeat(400)}`,
    '/pay/inv_x/extra/path',
    '/pay/',
    '/pay',
    '/pay/assets/pay.css',
    '/pay/%zz',
  ])('%s is an HTML 404 page with the same look and headers', async (url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      if (method === 'GET') expect(res.body).toContain('<h1>Payment page not found</h1>');
    }
  });

  test("the 404 page speaks the payer's language too", async () => {
    const ru = await t.app.inject({
      url: '/pay/inv_unknown0000000000000000000',
      headers: { 'accept-language': 'ru-RU,ru;q=0.9' },
    });
    expect(ru.statusCode).toBe(404);
    expect(ru.body).toMatch(/^<!doctype html>\n<html lang="ru">/);
    expect(ru.body).toContain('<h1>Страница оплаты не найдена</h1>');
    const es = await t.app.inject({ url: '/pay/inv_unknown0000000000000000000?lang=es' });
    expect(es.body).toContain('<h1>Página de pago no encontrada</h1>');
  });

  test('a page in another language: html lang, Content-Language, Vary, and the amounts written its way', async () => {
    const inv = await newInvoice();
    const res = await t.app.inject({ url: `/pay/${inv.id}`, headers: { 'accept-language': 'pt-BR' } });
    expect(res.body).toMatch(/^<!doctype html>\n<html lang="pt">/);
    expect(res.headers['content-language']).toBe('pt');
    expect(res.headers.vary).toBe('Accept-Language');
    expect(res.body).toContain('<span class="amount-value" id="pay-amount">12,50</span>');
    expect(res.body).toContain('data-copy-value="12.50"');
    expect(res.body).toContain(`data-page-url="${inv.id}?lang=pt"`);
    expect(res.body).toContain(
      '<script type="application/json" id="pay-messages">{"copied":"Copiado para a área de transferência"',
    );
  });

  test('API paths keep their JSON 404', async () => {
    const res = await t.app.inject({ url: '/v1/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});

describe('GET /pay/assets/{name}', () => {
  test('serves the hashed stylesheet and script for a year, with an ETag', async () => {
    const body = (await page((await newInvoice()).id)).body;
    for (const [, name, type] of body.matchAll(/(?:href|src)="assets\/(pay\.[0-9a-f]{12}\.(css|js))"/g)) {
      const res = await t.app.inject({ url: `/pay/assets/${name}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(
        type === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
      );
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const again = await t.app.inject({
        url: `/pay/assets/${name}`,
        headers: { 'if-none-match': res.headers.etag as string },
      });
      expect(again.statusCode).toBe(304);
    }
    expect([...body.matchAll(/assets\/pay\./g)]).toHaveLength(2);
  });
});
