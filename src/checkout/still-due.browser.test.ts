import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';

// Contract §21: while an invoice is open and not fully paid, the page always shows what is still due,
// the address, the QR code and the wallet link; a dust payment never changes what it shows.

let h: Harness;
beforeAll(async () => {
  if (!skipBrowserTests) h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const etag = (page: Page) => page.locator('#checkout').getAttribute('data-etag');

/** Waits until the page has read the invoice again (its version moved), whatever it then shows. */
async function reread(page: Page, before: string | null) {
  await page.clock.runFor(5000);
  await page.waitForFunction(
    (old) => (globalThis as any).document.querySelector('#checkout')?.getAttribute('data-etag') !== old,
    before,
    { timeout: 5000 },
  );
}

async function expectPayable(page: Page, due: string) {
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain(due);
  await expect(page.getByRole('link', { name: 'Open in wallet' }).isVisible()).resolves.toBe(true);
  await expect(page.getByText('Payment address').isVisible()).resolves.toBe(true);
  await expect(page.locator('#pay-address').isVisible()).resolves.toBe(true);
  await expect(
    page.getByRole('img', { name: new RegExp(`^QR code to pay ${due} USDT to `) }).isVisible(),
  ).resolves.toBe(true);
}

describe.skipIf(skipBrowserTests)('an open invoice the payer has not fully paid', () => {
  test('an unconfirmed dust payment changes nothing: 25.00 due, address, QR code and wallet link', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}`, { clock: true });
    await expectPayable(page, '25.00');
    const before = await etag(page);
    h.clock.advance(1000); // the payment is a later write than the invoice's creation
    await h.pay(inv.id, { amount: '0.01', confirmed: false });
    await reread(page, before);
    await expect(page.locator('#checkout').getAttribute('data-state')).resolves.toBe('waiting');
    await expectPayable(page, '25.00');
    await page.context().close();
  });

  test('a part-payment still confirming: detected, and what is left to pay, with the address, QR code and wallet link', async () => {
    const inv = await h.newInvoice();
    const page = await h.open(`/pay/${inv.id}`, { clock: true });
    const before = await etag(page);
    h.clock.advance(1000);
    await h.pay(inv.id, { amount: '10.00', confirmed: false });
    await reread(page, before);
    await page.getByRole('heading', { level: 2, name: 'Payment detected' }).waitFor();
    await expectPayable(page, '15.00');
    await page.context().close();
  });

  test('no Content-Security-Policy violation and no script error in all of the above', () => {
    expect(h.problems).toEqual([]);
  });
});
