import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../../test/app.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { sandboxProject } from '../../test/browser/seed.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { contrast } from '../branding/contrast.js';
import { LANGUAGE_CODES, LANGUAGES } from './i18n/i18n.js';

/** `rgb(r, g, b)` (a computed style) as `#rrggbb`. */
const hex = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;

/** Issue 13: the payer's view, as a payer meets it in Chromium. */
const PHONE = { width: 375, height: 667 };
const SHOP = 'https://shop.example';

let h: Harness;
beforeAll(async () => {
  if (!skipBrowserTests) h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const waitForState = (page: Page, s: string) =>
  page.locator(`#checkout[data-state="${s}"]`).waitFor({ timeout: 5000 });

/** The shop's pages, answered by the test: the payer's browser never leaves the machine. */
async function fakeShop(page: Page) {
  await page.context().route(`${SHOP}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Shop</title><h1>Your order</h1>',
    }),
  );
}

describe.skipIf(skipBrowserTests)("the payer's view in Chromium", () => {
  test('after a part-payment the headline is the remaining amount, not the total', async () => {
    const inv = await h.newInvoice();
    await h.pay(inv.id, { amount: '10.00' });
    const page = await h.open(`/pay/${inv.id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('15.00 USDT');
    await expect(page.locator('.summary-label').textContent()).resolves.toBe('Remaining to pay');
    await page.getByText('Invoice total 25.00 USDT, of which 10.00 USDT received').waitFor();
    await page.context().close();
  });

  test.each(['sandbox', 'tron', 'polygon'] as const)(
    'on a phone (%s), amount, address (with copy buttons) and "Open in wallet" are above the fold, before the QR code',
    async (network) => {
      const inv =
        network === 'sandbox'
          ? await h.newInvoice()
          : await (
              await sandboxProject(h.t.app, ADMIN_TOKEN, {
                network,
                ...(network === 'polygon' ? { currency: 'USDC', xpub: TEST_XPUB } : { xpub: TRON_TEST_XPUB }),
              })
            )('25.00');
      const page = await h.open(`/pay/${inv.id}`, { viewport: PHONE });
      const items = {
        amount: page.getByRole('heading', { level: 1 }),
        copyAmount: page.getByRole('button', { name: 'Copy amount' }),
        wallet: page.getByRole('link', { name: 'Open in wallet' }),
        address: page.locator('#pay-address'),
        copyAddress: page.getByRole('button', { name: 'Copy address' }),
      };
      for (const [name, locator] of Object.entries(items)) {
        const box = await locator.boundingBox();
        expect(box, name).not.toBeNull();
        expect(box?.y, name).toBeGreaterThanOrEqual(0);
        expect((box?.y ?? 0) + (box?.height ?? 0), name).toBeLessThanOrEqual(PHONE.height);
        expect(box?.x ?? 0, name).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(PHONE.width);
      }
      const qr = await page.locator('svg.qr').boundingBox();
      const wallet = await items.wallet.boundingBox();
      expect(qr?.y).toBeGreaterThan((wallet?.y ?? 0) + (wallet?.height ?? 0));
      const wallets = {
        sandbox: `sandbox:${inv.pay_address}?amount=25.00&currency=USDT`,
        tron: `tron:${inv.pay_address}`,
        polygon: `ethereum:0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359@137/transfer?address=${inv.pay_address}&uint256=25000000`,
      };
      await expect(items.wallet.getAttribute('href')).resolves.toBe(wallets[network]);
      // Groups of four, each on one line; the text is still the address, without spaces.
      await expect(items.address.textContent()).resolves.toBe(inv.pay_address);
      const groups = await items.address
        .locator('span')
        .evaluateAll((spans) => spans.map((s) => [s.textContent, s.getClientRects().length]));
      expect(groups.map(([text]) => text).join('')).toBe(inv.pay_address);
      expect(groups.every(([text, lines]) => lines === 1 && String(text).length <= 4)).toBe(true);
      await page.context().close();
    },
  );

  test('the amount copy button copies the plain decimal, whatever the language shows', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}?lang=es`, {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('25,00 USDT');
    await page.getByRole('button', { name: LANGUAGES.es.messages['copy.amount'] }).click();
    await page.locator('[data-copy-status]', { hasText: LANGUAGES.es.messages['script.copied'] }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe('25.00');
    await page.context().close();
  });

  test('the detected view shows the amount seen and the transaction, and no payment button', async () => {
    const inv = await h.newInvoice();
    await h.pay(inv.id, { amount: '25.00', confirmed: false, tx_hash: '0xseen1234' });
    const page = await h.open(`/pay/${inv.id}`);
    await waitForState(page, 'detected');
    await page.getByRole('definition').filter({ hasText: '25.00 USDT' }).waitFor();
    await page.getByText('0xseen1234').waitFor();
    expect(await page.getByRole('button', { name: 'Simulate payment' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Open in wallet' }).count()).toBe(0);
    await page.context().close();
  });

  test('paid: "Return to {merchant}", and the page takes the payer back by itself', async () => {
    const inv = await h.newInvoice(3600, { redirect_url: `${SHOP}/orders/1` });
    const context = await h.browser.newContext();
    await context.clock.install();
    const page = await context.newPage();
    await fakeShop(page);
    await page.goto(`${h.base}/pay/${inv.id}`);
    await h.pay(inv.id);
    await page.clock.runFor(2000); // the next poll sees the change
    await waitForState(page, 'paid');
    const back = page.getByRole('link', { name: 'Return to Acme Coffee Roasters' });
    await expect(back.getAttribute('href')).resolves.toBe(`${SHOP}/orders/1`);
    await page.getByText('Taking you back to Acme Coffee Roasters in 5 s.', { exact: true }).waitFor();
    // Said once to screen readers, with the new status (the countdown is not a live region).
    await expect(page.locator('#announcer').textContent()).resolves.toBe(
      'Payment received. Taking you back to Acme Coffee Roasters in 5 s.',
    );
    await page.clock.runFor(5000);
    await page.waitForURL(`${SHOP}/orders/1`);
    await context.close();
  });

  test('paid: "Stay on this page" stops the redirect', async () => {
    const inv = await h.newInvoice(3600, { redirect_url: `${SHOP}/orders/2` });
    await h.pay(inv.id);
    const context = await h.browser.newContext();
    await context.clock.install();
    const page = await context.newPage();
    await fakeShop(page);
    await page.goto(`${h.base}/pay/${inv.id}`);
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    await page.getByText('You are staying on this page.').waitFor();
    await page.clock.runFor(30_000);
    expect(page.url()).toBe(`${h.base}/pay/${inv.id}`);
    await expect(
      page.getByRole('link', { name: 'Return to Acme Coffee Roasters' }).isVisible(),
    ).resolves.toBe(true);
    await context.close();
  });

  test('waiting: "Cancel and return" goes to cancel_url', async () => {
    const inv = await h.newInvoice(3600, { cancel_url: `${SHOP}/cart` });
    const page = await h.open(`/pay/${inv.id}`);
    await fakeShop(page);
    await page.getByRole('link', { name: 'Cancel and return' }).click();
    await page.waitForURL(`${SHOP}/cart`);
    await page.context().close();
  });

  test.each(LANGUAGE_CODES)('the waiting view in %s: by Accept-Language and by ?lang=', async (lang) => {
    const m = LANGUAGES[lang].messages;
    const inv = await h.newInvoice();
    for (const open of [
      () => h.open(`/pay/${inv.id}`, { locale: `${lang}-XX`, permissions: ['clipboard-write'] }),
      () => h.open(`/pay/${inv.id}?lang=${lang}`, { locale: 'de-DE', permissions: ['clipboard-write'] }),
    ]) {
      const page = await open();
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(lang);
      await page.getByRole('heading', { level: 2, name: m['waiting.heading'] }).waitFor();
      await page.getByRole('link', { name: m['pay.openWallet'] }).waitFor();
      // The script speaks the language too: its messages come from the page.
      await page.getByRole('button', { name: m['copy.address'] }).click();
      await page.locator('[data-copy-status]', { hasText: m['script.copied'] }).waitFor();
      await page.context().close();
    }
  });

  test('a live update keeps the language', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}?lang=tr`, { clock: true });
    await h.pay(inv.id);
    await page.clock.runFor(2000); // the next poll sees the change
    await waitForState(page, 'paid');
    await page.getByRole('heading', { level: 2, name: LANGUAGES.tr.messages['paid.heading'] }).waitFor();
    await page.context().close();
  });

  test.each(['light', 'dark'] as const)(
    'a brand colour fills the buttons, with text of at least 4.5:1 on it (%s scheme), and the logo shows',
    async (colorScheme) => {
      const inv = await h.newInvoice(7200); // a project of its own
      const { project_id } = await h.t.database.db
        .selectFrom('invoices')
        .select('project_id')
        .where('id', '=', inv.id)
        .executeTakeFirstOrThrow();
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
      const color = await h.t.app.inject({
        method: 'PATCH',
        url: `/v1/admin/projects/${project_id}/branding`,
        headers: admin,
        payload: { brand_color: '#1e3a8a' }, // navy: as is in light, lightened in dark
      });
      expect(color.statusCode, color.body).toBe(200);
      const logo = await h.t.app.inject({
        method: 'PUT',
        url: `/v1/admin/projects/${project_id}/logo`,
        headers: { ...admin, 'content-type': 'image/png' },
        payload: PNG.sync.write(new PNG({ width: 80, height: 40 })),
      });
      expect(logo.statusCode, logo.body).toBe(200);
      const page = await h.open(`/pay/${inv.id}`, { colorScheme, viewport: PHONE });
      const wallet = page.getByRole('link', { name: 'Open in wallet' });
      const [fill, text] = await wallet.evaluate((el) => {
        const style = (globalThis as any).getComputedStyle(el);
        return [style.backgroundColor, style.color];
      });
      const card = await page
        .locator('#checkout')
        .evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor);
      if (colorScheme === 'light') expect(fill).toBe('rgb(30, 58, 138)');
      expect(contrast(hex(fill), hex(text))).toBeGreaterThanOrEqual(4.5);
      expect(contrast(hex(fill), hex(card))).toBeGreaterThanOrEqual(3);
      const img = page.locator('img.logo');
      await expect(img.evaluate((el) => (el as any).naturalWidth)).resolves.toBe(80);
      await page.context().close();
    },
  );

  test('no Content-Security-Policy violation and no script error in all of the above', () => {
    expect(h.problems).toEqual([]);
  });
});
