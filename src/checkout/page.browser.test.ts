import jsqr from 'jsqr';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../../test/app.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { STATES, sandboxProject } from '../../test/browser/seed.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { money } from '../money/money.js';
import { paymentRequest } from '../networks/payment-request.js';

const HEADINGS = {
  waiting: 'Waiting for payment',
  detected: 'Payment detected',
  paid: 'Payment received',
  expired: 'Invoice expired',
  failed: 'Payment incomplete',
};

let h: Harness;
beforeAll(async () => {
  if (!skipBrowserTests) h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const state = (page: Page) => page.locator('#checkout').getAttribute('data-state');
const waitForState = (page: Page, s: string, timeout = 5000) =>
  page.locator(`#checkout[data-state="${s}"]`).waitFor({ timeout });
// A value on window survives only as long as the document does: a reload would lose it.
const mark = (page: Page) => page.evaluate(() => Object.assign(globalThis, { paydeskMarker: 42 }));
const marker = (page: Page) => page.evaluate(() => (globalThis as any).paydeskMarker);

describe.skipIf(skipBrowserTests)('the payment page in Chromium', () => {
  test.each(STATES)('renders the %s view', async (s) => {
    const page = await h.open(`/pay/${h.ids[s]}`);
    expect(await state(page)).toBe(s);
    await expect(page.getByRole('heading', { level: 2, name: HEADINGS[s] }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('25.00');
    // Only while waiting: in the detected view a payment is on its way, and must not be made twice.
    expect(await page.getByRole('button', { name: 'Simulate payment' }).count()).toBe(
      s === 'waiting' ? 1 : 0,
    );
    await page.context().close();
  });

  test('"Simulate payment" turns the page to paid without a reload', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}`);
    await mark(page);
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await waitForState(page, 'paid');
    expect(await marker(page)).toBe(42);
    await expect(page.locator('#announcer').textContent()).resolves.toBe('Payment received');
    await expect(page.title()).resolves.toMatch(/^Payment received/);
    await page.context().close();
  });

  test('a payment made elsewhere shows within 5 s: detected, then paid, on the same page', async () => {
    const inv = await h.newInvoice();
    // 5 s of the page's own time, moved by hand: its polls run on Playwright's clock.
    const page = await h.open(`/pay/${inv.id}`, { clock: true });
    await mark(page);
    await h.pay(inv.id, { confirmed: false, tx_hash: '0xelsewhere' });
    await page.clock.runFor(5000);
    await waitForState(page, 'detected');
    await h.pay(inv.id, { confirmed: true, tx_hash: '0xelsewhere' });
    await page.clock.runFor(5000);
    await waitForState(page, 'paid');
    expect(await marker(page)).toBe(42);
    await page.context().close();
  });

  test('the QR code in a screenshot decodes to the payment request', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}`, { viewport: { width: 375, height: 812 } });
    const png = PNG.sync.read(await page.locator('svg.qr').screenshot());
    const code = jsqr.default(new Uint8ClampedArray(png.data), png.width, png.height);
    const expected = paymentRequest(
      { network: 'sandbox', currency: 'USDT', pay_address: inv.pay_address, amount: money('25.00') },
      h.t.app.config.networks,
    );
    expect(code?.data).toBe(expected);
    await page.context().close();
  });

  test('on an EVM network the QR code is an EIP-681 token transfer of what is due', async () => {
    const create = await sandboxProject(h.t.app, ADMIN_TOKEN, {
      network: 'polygon',
      currency: 'USDC',
      xpub: TEST_XPUB,
    });
    const inv = await create('10.50');
    const page = await h.open(`/pay/${inv.id}`, { viewport: { width: 375, height: 812 } });
    const png = PNG.sync.read(await page.locator('svg.qr').screenshot());
    const code = jsqr.default(new Uint8ClampedArray(png.data), png.width, png.height);
    // Circle's USDC on Polygon (chain 137), 6 decimals: 10.50 is 10500000 units.
    expect(code?.data).toBe(
      `ethereum:0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359@137/transfer?address=${inv.pay_address}&uint256=10500000`,
    );
    await expect(page.locator('.badge').textContent()).resolves.toContain('Polygon');
    await page.context().close();
  });

  test('on TRON the QR code is the bare T-address, and the badge names TRON', async () => {
    const create = await sandboxProject(h.t.app, ADMIN_TOKEN, { network: 'tron', xpub: TRON_TEST_XPUB });
    const inv = await create('10.50');
    const page = await h.open(`/pay/${inv.id}`, { viewport: { width: 375, height: 812 } });
    const png = PNG.sync.read(await page.locator('svg.qr').screenshot());
    const code = jsqr.default(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(code?.data).toBe(inv.pay_address);
    expect(inv.pay_address).toMatch(/^T/);
    await expect(page.locator('.badge').textContent()).resolves.toContain('TRON');
    await page.getByText('exactly 10.50 USDT').waitFor();
    await page.context().close();
  });

  test('the countdown runs down to the deadline, and the page then shows the expired view', async () => {
    const inv = await h.newInvoice(60);
    const context = await h.browser.newContext();
    await context.clock.install();
    const page = await context.newPage();
    await page.goto(`${h.base}/pay/${inv.id}`);
    await expect(page.locator('[data-countdown]').textContent()).resolves.toMatch(/^(01:00|00:59)$/);
    await context.clock.fastForward(30_000);
    await expect(page.locator('[data-countdown]').textContent()).resolves.toMatch(/^00:(29|30)$/);
    h.clock.advance(61_000);
    await context.clock.fastForward(31_000);
    await waitForState(page, 'expired');
    await context.close();
  });

  test('the copy button copies the address and says so', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}`, { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.getByRole('button', { name: 'Copy address' }).click();
    // The copy is asynchronous (the Clipboard API): wait for the page to say it is done.
    await page.locator('[data-copy-status]', { hasText: /^Copied/ }).waitFor({ timeout: 5000 });
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(
      inv.pay_address,
    );
    await page.context().close();
  });

  test('without JavaScript: the right state on reload, and the button still pays (form post, 303)', async () => {
    const first = await h.newInvoice();
    const page = await h.open(`/pay/${first.id}`, { javaScriptEnabled: false });
    expect(await page.locator('noscript').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Copy address' }).isVisible()).toBe(false);
    await h.pay(first.id);
    await page.reload();
    expect(await state(page)).toBe('paid');
    const second = await h.newInvoice();
    await page.goto(`${h.base}/pay/${second.id}`);
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    // Back to the page in the language it was shown in.
    await page.waitForURL(`${h.base}/pay/${second.id}?lang=en`);
    expect(await state(page)).toBe('paid');
    await page.context().close();
  });

  test('polls with If-None-Match (304 while nothing changes), pauses while hidden, stops once paid', async () => {
    const inv = await h.newInvoice();
    // The page's own clock is Playwright's, moved by hand; a counter on fetch says when a poll starts.
    const context = await h.browser.newContext();
    await context.clock.install();
    await context.addInitScript(() => {
      const w = globalThis as any;
      const fetch = w.fetch.bind(w);
      w.statusPolls = 0;
      w.fetch = (url: unknown, init: unknown) => {
        if (String(url).endsWith('/status')) w.statusPolls++;
        return fetch(url, init);
      };
    });
    const page = await context.newPage();
    await page.goto(`${h.base}/pay/${inv.id}`);
    const polls = () => page.evaluate(() => (globalThis as any).statusPolls as number);
    const answered = () => page.waitForResponse((res) => res.url().endsWith('/status'));
    for (let i = 1; i <= 2; i++) {
      const response = answered();
      await page.clock.runFor(2000);
      expect((await response).status()).toBe(304);
      expect(await polls()).toBe(i);
    }
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        const doc = (globalThis as any).document;
        Object.defineProperty(doc, 'hidden', { configurable: true, get: () => value });
        doc.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    await page.clock.runFor(20_000);
    expect(await polls()).toBe(2);
    const resumed = answered();
    await setHidden(false); // visible again: it asks at once
    expect(await polls()).toBe(3);
    await resumed;
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await waitForState(page, 'paid');
    const afterPaid = await polls();
    await page.clock.runFor(20_000);
    expect(await polls()).toBe(afterPaid);
    await context.close();
  });

  test('no Content-Security-Policy violation and no script error in all of the above', () => {
    expect(h.problems).toEqual([]);
  });
});
