import jsqr from 'jsqr';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../../test/app.js';
import { accessibilityProblems } from '../../test/browser/axe.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { type CreatedInvoice, sandboxProject } from '../../test/browser/seed.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { money } from '../money/money.js';
import { paymentRequest } from '../networks/payment-request.js';

/** Contract §15's "Pay with" in Chromium: with the script, without it, and through a reload. */
const PHONE = { width: 375, height: 667 };

type Offered = CreatedInvoice['payment_methods'][number];

let h: Harness;
let create: (amount?: string) => Promise<CreatedInvoice>;
beforeAll(async () => {
  if (skipBrowserTests) return;
  h = await startHarness();
  const project = await sandboxProject(h.t.app, ADMIN_TOKEN, {
    currency: 'USD',
    payment_methods: [
      // Test networks only beside the sandbox (contract §21).
      { network: 'tron-nile', currency: 'USDT' },
      { network: 'polygon-amoy', currency: 'USDC' },
      { network: 'sandbox', currency: 'USDT' },
      { network: 'sandbox', currency: 'USDC' },
    ],
    evm_xpub: TEST_XPUB,
    tron_xpub: TRON_TEST_XPUB,
  });
  create = (amount = '25.00') => project(amount);
});
afterAll(async () => {
  await h?.close();
});

const method = (inv: CreatedInvoice, network: string, currency: string) =>
  inv.payment_methods.find((m) => m.network === network && m.currency === currency) as Offered;
const qrText = async (page: Page) => {
  const png = PNG.sync.read(await page.locator('svg.qr').screenshot());
  return jsqr.default(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
};
/** The address shown, waited for: the text of the address block is the address exactly. */
const showsAddress = (page: Page, address: string) =>
  page.locator('#pay-address', { hasText: address }).waitFor({ timeout: 5000 });
const chosen = (page: Page) => new URL(page.url()).searchParams.get('method');
const focusedId = (page: Page) => page.evaluate(() => (globalThis as any).document.activeElement?.id);
// A value on window survives only as long as the document does: a reload would lose it.
const mark = (page: Page) => page.evaluate(() => Object.assign(globalThis, { paydeskMarker: 42 }));
const marker = (page: Page) => page.evaluate(() => (globalThis as any).paydeskMarker);

describe.skipIf(skipBrowserTests)('"Pay with" in Chromium', () => {
  test('choosing a method shows its amount, address, QR code and wallet link, and the URL keeps it through a reload', async () => {
    const inv = await create();
    const tron = method(inv, 'tron-nile', 'USDT');
    const polygon = method(inv, 'polygon-amoy', 'USDC');
    const page = await h.open(`/pay/${inv.id}`, { viewport: PHONE });
    const group = page.getByRole('radiogroup', { name: 'Pay with' });
    await expect(group.getByRole('radio').count()).resolves.toBe(4);
    await expect(page.getByRole('radio', { name: 'USDT on TRON Nile' }).isChecked()).resolves.toBe(true);
    // With the script, a radio shows its method at once: no "Show" button.
    await expect(page.getByRole('button', { name: 'Show payment details' }).isVisible()).resolves.toBe(false);
    await showsAddress(page, tron.pay_address);
    expect(await qrText(page)).toBe(tron.pay_address);
    // Phone first, chooser included: amount, address and their copy buttons above the fold.
    for (const name of ['Copy amount', 'Copy address']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect((box?.y ?? 0) + (box?.height ?? 0), name).toBeLessThanOrEqual(PHONE.height);
    }
    const address = await page.locator('#pay-address').boundingBox();
    expect((address?.y ?? 0) + (address?.height ?? 0)).toBeLessThanOrEqual(PHONE.height);

    await mark(page);
    await page.getByRole('radio', { name: 'USDC on Polygon Amoy' }).check();
    await showsAddress(page, polygon.pay_address);
    expect(chosen(page)).toBe('polygon-amoy:USDC');
    expect(new URL(page.url()).search).toBe('?method=polygon-amoy:USDC&lang=en');
    expect(await marker(page)).toBe(42); // swapped in, not reloaded
    expect(await focusedId(page)).toBe('method-polygon-amoy-USDC');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('25.00 USDC');
    const request = paymentRequest({ ...polygon, amount: money('25.00') }, h.t.app.config.networks);
    expect(await qrText(page)).toBe(request);
    await expect(page.getByRole('link', { name: 'Open in wallet' }).getAttribute('href')).resolves.toBe(
      request,
    );
    // The language links keep the choice too.
    await expect(page.getByRole('link', { name: 'Español' }).getAttribute('href')).resolves.toBe(
      '?method=polygon-amoy:USDC&lang=es',
    );

    await page.reload();
    expect(await marker(page)).toBeUndefined();
    await expect(page.getByRole('radio', { name: 'USDC on Polygon Amoy' }).isChecked()).resolves.toBe(true);
    await showsAddress(page, polygon.pay_address);
    expect(await qrText(page)).toBe(request);
    await page.context().close();
  });

  test('with the arrow keys: each method in turn, focus kept on the radio; a live update keeps the choice', async () => {
    const inv = await create();
    const page = await h.open(`/pay/${inv.id}`);
    await page.getByRole('radio', { name: 'USDT on TRON Nile' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.searchParams.get('method') === 'polygon-amoy:USDC', { timeout: 5000 });
    await showsAddress(page, method(inv, 'polygon-amoy', 'USDC').pay_address);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.searchParams.get('method') === 'sandbox:USDT', { timeout: 5000 });
    await page.getByRole('button', { name: 'Simulate payment' }).waitFor();
    expect(await focusedId(page)).toBe('method-sandbox-USDT');
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('heading', { level: 1, name: '25.00 USDC' }).waitFor();
    expect(chosen(page)).toBe('polygon-amoy:USDC');
    expect(await focusedId(page)).toBe('method-polygon-amoy-USDC');
    // A part-payment made elsewhere: the page updates by itself, still on Polygon, for what is left.
    await h.pay(inv.id, { amount: '5.00' });
    await page.getByText('of which 5.00 USDT on Sandbox received').waitFor({ timeout: 5000 });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('20.00 USDC');
    await expect(page.getByRole('radio', { name: 'USDC on Polygon Amoy' }).isChecked()).resolves.toBe(true);
    await page.context().close();
  });

  test('"Simulate payment" pays in the chosen sandbox token, and the paid view says so', async () => {
    const inv = await create();
    const page = await h.open(`/pay/${inv.id}?method=sandbox:USDC`);
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await page.locator('#checkout[data-state="paid"]').waitFor({ timeout: 5000 });
    await page.getByText('25.00 USDC on Sandbox').waitFor();
    await page.context().close();
  });

  test('without JavaScript: choose, press "Show payment details", and the page is the chosen method', async () => {
    const inv = await create();
    const polygon = method(inv, 'polygon-amoy', 'USDC');
    const page = await h.open(`/pay/${inv.id}?lang=en`, { javaScriptEnabled: false });
    await page.getByRole('radio', { name: 'USDC on Polygon Amoy' }).check();
    await page.getByRole('button', { name: 'Show payment details' }).click();
    await page.waitForURL((url) => url.searchParams.get('method') === 'polygon-amoy:USDC', { timeout: 5000 });
    expect(new URL(page.url()).searchParams.get('lang')).toBe('en');
    await showsAddress(page, polygon.pay_address);
    await expect(page.getByRole('radio', { name: 'USDC on Polygon Amoy' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('25.00 USDC');
    await page.context().close();
  });

  test('passes axe with a method chosen by the script, on a phone, light and dark', async () => {
    const inv = await create();
    // Only here is the CSP lifted, so that axe's own script can be injected.
    const page = await h.open(`/pay/${inv.id}`, { viewport: PHONE, bypassCSP: true });
    await page.getByRole('radio', { name: 'USDC on Polygon Amoy' }).check();
    await showsAddress(page, method(inv, 'polygon-amoy', 'USDC').pay_address);
    expect(await accessibilityProblems(page, 'methods', PHONE.width)).toEqual([]);
    await page.context().close();
  });

  test('no Content-Security-Policy violation and no script error in all of the above', () => {
    expect(h.problems).toEqual([]);
  });
});
