import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../../test/app.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { STATES, sandboxProject } from '../../test/browser/seed.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { LANGUAGE_CODES } from './i18n/i18n.js';

/**
 * The screenshots of docs/payment-page.md (docs/screenshots/pay-*.png): every state in every language, and
 * a few variants in English (part-paid, the way back to the shop, Polygon, TRON, several payment
 * methods, dark, branded), on a phone (375 px) and a desktop. Written only when PAYDESK_SCREENSHOTS is set
 * (`1`: into docs/screenshots/; anything else: that folder), so CI never rewrites them:
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

/** A sample logo: a diagonal gradient in the brand's hue. */
function sampleLogo(): Buffer {
  const image = new PNG({ width: 96, height: 96 });
  for (let y = 0; y < 96; y++) {
    for (let x = 0; x < 96; x++)
      image.data.set([0x1e + x, 0x3a + y, 0x8a + (x + y) / 2, 0xff], (y * 96 + x) * 4);
  }
  return PNG.sync.write(image);
}

async function brandedInvoice(): Promise<string> {
  const create = await sandboxProject(h.t.app, ADMIN_TOKEN, { name: 'Blue Harbour Books' });
  const inv = await create('42.00', { cancel_url: 'https://shop.example/cart' });
  const { project_id } = await h.t.database.db
    .selectFrom('invoices')
    .select('project_id')
    .where('id', '=', inv.id)
    .executeTakeFirstOrThrow();
  const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const url = `/v1/admin/projects/${project_id}`;
  await h.t.app.inject({
    method: 'PATCH',
    url: `${url}/branding`,
    headers,
    payload: { brand_color: '#1e3a8a' },
  });
  await h.t.app.inject({
    method: 'PUT',
    url: `${url}/logo`,
    headers: { ...headers, 'content-type': 'image/png' },
    payload: sampleLogo(),
  });
  return inv.id;
}

describe.skipIf(skipBrowserTests || !target)('screenshots for docs/payment-page.md', () => {
  test('every state in every language, and the variants, phone and desktop', async () => {
    await mkdir(OUT, { recursive: true });
    const part = await h.newInvoice();
    await h.pay(part.id, { amount: '10.00' });
    const back = await h.newInvoice(3600, { redirect_url: 'https://shop.example/orders/1042' });
    await h.pay(back.id);
    const polygon = await sandboxProject(h.t.app, ADMIN_TOKEN, {
      network: 'polygon',
      currency: 'USDC',
      xpub: TEST_XPUB,
    });
    const tron = await sandboxProject(h.t.app, ADMIN_TOKEN, { network: 'tron', xpub: TRON_TEST_XPUB });
    const methods = await sandboxProject(h.t.app, ADMIN_TOKEN, {
      currency: 'USD',
      payment_methods: [
        // Test networks only beside the sandbox (contract §21).
        { network: 'tron-nile', currency: 'USDT' },
        { network: 'polygon-amoy', currency: 'USDC' },
        { network: 'base-sepolia', currency: 'USDC' },
        { network: 'sandbox', currency: 'USDT' },
      ],
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
    });
    const methodsPaid = await methods('25.00');
    await h.pay(methodsPaid.id);
    const shots: Array<[name: string, url: string, scheme?: 'dark']> = [
      ...STATES.map((s) => [s, `/pay/${h.ids[s]}?lang=en`] as [string, string]),
      ['part-paid', `/pay/${part.id}?lang=en`],
      ['paid-return', `/pay/${back.id}?lang=en`],
      ['waiting-polygon', `/pay/${(await polygon('25.00')).id}?lang=en`],
      ['waiting-tron', `/pay/${(await tron('25.00')).id}?lang=en`],
      ['waiting-methods', `/pay/${(await methods('25.00')).id}?method=polygon-amoy:USDC&lang=en`],
      ['paid-methods', `/pay/${methodsPaid.id}?lang=en`],
      ['waiting-dark', `/pay/${h.ids.waiting}?lang=en`, 'dark'],
      ['branded', `/pay/${await brandedInvoice()}?lang=en`],
      ...LANGUAGE_CODES.filter((l) => l !== 'en').flatMap((l) =>
        STATES.map((s) => [`${s}-${l}`, `/pay/${h.ids[s]}?lang=${l}`] as [string, string]),
      ),
    ];
    for (const [device, options] of Object.entries(DEVICES)) {
      for (const [name, url, scheme] of shots) {
        const page = await h.open('', { ...options, colorScheme: scheme ?? 'light' });
        await page.clock.install(); // the countdown and the redirect stand still for the picture
        await page.goto(`${h.base}${url}`);
        await page.screenshot({ path: `${OUT}pay-${name}-${device}.png`, fullPage: true });
        await page.context().close();
      }
    }
    expect(h.problems).toEqual([]);
  }, 600_000);
});
