import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant } from '../../test/app.js';
import { accessibilityProblems, VIEWPORTS } from '../../test/browser/axe.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
let h: Harness;
/** Claim links: one of a single method, one of several (EVM and TRON), one used. */
let links: Record<string, string>;

async function refundOf(projectFields: Record<string, unknown>) {
  const m = await createMerchant(h.t.app, projectFields);
  const inv = (await createInvoice(h.t.app, m, { amount: '25.00' })).json().data;
  await h.pay(inv.id, {
    currency: inv.payment_methods.find((x: { network: string }) => x.network === 'sandbox')?.currency,
  });
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${inv.id}/refunds`,
    headers: m.auth,
    payload: { amount: '10.00' },
  });
  return new URL(res.json().data.refund.claim_url).pathname;
}

beforeAll(async () => {
  if (skipBrowserTests) return;
  h = await startHarness();
  const several = {
    currency: 'USD',
    payment_methods: [
      // Test networks only beside the sandbox (contract §21).
      { network: 'sandbox', currency: 'USDT' },
      { network: 'tron-nile', currency: 'USDT' },
      { network: 'polygon-amoy', currency: 'USDC' },
    ],
    evm_xpub: TEST_XPUB,
    tron_xpub: TRON_TEST_XPUB,
  };
  links = {
    one: await refundOf({}),
    several: await refundOf(several),
    used: await refundOf({}),
    claim: await refundOf(several),
  };
  const page = await h.open(links.used as string);
  await page.getByRole('radio', { name: 'USDT on Sandbox' }).check();
  await page.getByLabel('Refund address').fill(ADDRESS);
  await page.getByRole('button', { name: 'Request refund' }).click();
  await page.getByRole('heading', { name: 'Refund requested' }).waitFor();
  await page.context().close();
});
afterAll(async () => {
  await h?.close();
});

describe.skipIf(skipBrowserTests)('the refund claim page in Chromium', () => {
  test('the payer chooses TRON, a wrong address is explained in place, the right one makes the refund ready', async () => {
    const page = await h.open(`${links.claim}?lang=en`, { viewport: VIEWPORTS.phone });
    await page.getByRole('radiogroup', { name: 'Receive as' }).waitFor();
    await page.getByRole('radio', { name: 'USDT on TRON Nile' }).check();
    await page.getByLabel('Refund address').fill(ADDRESS);
    await page.getByRole('button', { name: 'Request refund' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Enter a TRON address');
    expect(await page.getByRole('radio', { name: 'USDT on TRON Nile' }).isChecked()).toBe(true);
    const tron = 'TARkPnaSRKSg6ZAUbJGMGvBstELj7VS3Br';
    await page.getByLabel('Refund address').fill(tron);
    await page.getByRole('button', { name: 'Request refund' }).click();
    await page.getByRole('heading', { name: 'Refund requested' }).waitFor();
    expect(await page.getByText(tron).count()).toBeGreaterThan(0);
    expect(h.problems).toEqual([]);
  });

  test.each(Object.entries(VIEWPORTS).map(([device, viewport]) => ({ device, viewport })))(
    'no serious or critical axe violation, light or dark, no sideways scrolling: $device',
    async ({ viewport }) => {
      const page = await h.open('', { viewport, bypassCSP: true });
      const found: string[] = [];
      const views = {
        ...links,
        'not-found': `/refund/${'A'.repeat(43)}`,
        'several-es': `${links.several}?lang=es`,
      };
      for (const [name, path] of Object.entries(views)) {
        if (name === 'claim') continue;
        await page.goto(`${h.base}${path}`);
        found.push(...(await accessibilityProblems(page, `refund-${name}`, viewport.width)));
      }
      await page.context().close();
      expect(found).toEqual([]);
    },
    60_000,
  );
});
