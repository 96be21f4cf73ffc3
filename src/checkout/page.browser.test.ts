import jsqr from 'jsqr';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../../test/app.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { STATES, sandboxProject } from '../../test/browser/seed.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { paymentRequest } from './payment-request.js';

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
    expect(await page.getByRole('button', { name: 'Simulate payment' }).count()).toBe(
      s === 'waiting' || s === 'detected' ? 1 : 0,
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
    const page = await h.open(`/pay/${inv.id}`);
    await mark(page);
    await h.pay(inv.id, { confirmed: false });
    await waitForState(page, 'detected');
    await h.pay(inv.id);
    await waitForState(page, 'paid');
    expect(await marker(page)).toBe(42);
    await page.context().close();
  });

  test('the QR code in a screenshot decodes to the payment request', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}`, { viewport: { width: 375, height: 812 } });
    const png = PNG.sync.read(await page.locator('svg.qr').screenshot());
    const code = jsqr.default(new Uint8ClampedArray(png.data), png.width, png.height);
    const expected = paymentRequest({
      network: 'sandbox',
      currency: 'USDT',
      pay_address: inv.pay_address,
      amount: '25.00',
    });
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
    await expect(page.locator('[data-copy-status]').textContent()).resolves.toMatch(/^Copied/);
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
    await page.waitForURL(`${h.base}/pay/${second.id}`);
    expect(await state(page)).toBe('paid');
    await page.context().close();
  });

  test('polls with If-None-Match (304 while nothing changes), pauses while hidden, stops once paid', async () => {
    const inv = await h.newInvoice();
    const page = await h.open('');
    const polls: number[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/status')) polls.push(res.status());
    });
    await page.goto(`${h.base}/pay/${inv.id}`);
    await page.waitForTimeout(4500);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(polls)).toEqual(new Set([304]));
    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        const doc = (globalThis as any).document;
        Object.defineProperty(doc, 'hidden', { configurable: true, get: () => value });
        doc.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    await page.waitForTimeout(500); // a poll already under way may still land
    const whileHidden = polls.length;
    await page.waitForTimeout(4500);
    expect(polls.length).toBe(whileHidden);
    await setHidden(false);
    await page.waitForTimeout(500);
    expect(polls.length).toBe(whileHidden + 1);
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await waitForState(page, 'paid');
    await page.waitForTimeout(2500); // a poll started before the click may still land
    const afterPaid = polls.length;
    await page.waitForTimeout(4500);
    expect(polls.length).toBe(afterPaid);
    await page.context().close();
  }, 30_000);

  test('no Content-Security-Policy violation and no script error in all of the above', () => {
    expect(h.problems).toEqual([]);
  });
});
