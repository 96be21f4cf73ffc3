import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { STATES } from '../../test/browser/seed.js';
import { LANGUAGE_CODES } from './i18n/i18n.js';

/**
 * The screenshots of docs/payment-page.md: every state in English and the waiting view in every
 * language, on a phone and a desktop. Written only when PAYDESK_SCREENSHOTS is set (`1`: into
 * docs/screenshots/; anything else: that folder), so a CI run never rewrites them:
 * `PAYDESK_SCREENSHOTS=1 npx vitest run src/checkout/screenshots.browser.test.ts`.
 */
const target = process.env.PAYDESK_SCREENSHOTS;
const OUT =
  target === '1' ? fileURLToPath(new URL('../../docs/screenshots/', import.meta.url)) : `${target}/`;
const DEVICES = {
  phone: { viewport: { width: 375, height: 667 }, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
};

let h: Harness;
beforeAll(async () => {
  if (!skipBrowserTests && target) h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe.skipIf(skipBrowserTests || !target)('screenshots for docs/payment-page.md', () => {
  test('every state in English, the waiting view in every language, phone and desktop', async () => {
    await mkdir(OUT, { recursive: true });
    const part = await h.newInvoice();
    await h.pay(part.id, { amount: '10.00' });
    const shots: Array<[string, string]> = [
      ...STATES.map((s) => [s, `/pay/${h.ids[s]}?lang=en`] as [string, string]),
      ['part-paid', `/pay/${part.id}?lang=en`],
      ...LANGUAGE_CODES.filter((l) => l !== 'en').map(
        (l) => [`waiting-${l}`, `/pay/${h.ids.waiting}?lang=${l}`] as [string, string],
      ),
    ];
    for (const [device, options] of Object.entries(DEVICES)) {
      const page = await h.open('', options);
      for (const [name, url] of shots) {
        await page.goto(`${h.base}${url}`);
        await page.screenshot({ path: `${OUT}pay-${name}-${device}.png`, fullPage: device === 'desktop' });
      }
      await page.context().close();
    }
    expect(h.problems).toEqual([]);
  }, 120_000);
});
