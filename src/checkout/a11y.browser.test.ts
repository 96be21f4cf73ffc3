import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN } from '../../test/app.js';
import { accessibilityProblems, VIEWPORTS } from '../../test/browser/axe.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type Harness, startHarness } from '../../test/browser/harness.js';
import { STATES, type State, sandboxProject } from '../../test/browser/seed.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { onPostgres } from '../../test/database.js';
import { observeOne } from '../invoices/observe.js';
import { money } from '../money/money.js';

// The audit reads the pages' HTML, which the database under them does not change: it runs once per CI
// run, in the PGlite run, rather than twice over the same markup.
const skipAudit = skipBrowserTests || onPostgres;

let h: Harness;
/** A TRON invoice's page: its own instructions (the amount typed by hand) must pass too. */
let tronInvoice: string;
/** Issue 13's views: a part-payment, the way back to the shop, and other languages. */
let extra: Record<string, string>;
beforeAll(async () => {
  if (skipAudit) return;
  h = await startHarness();
  const tron = await sandboxProject(h.t.app, ADMIN_TOKEN, { network: 'tron', xpub: TRON_TEST_XPUB });
  tronInvoice = (await tron('25.00')).id;
  const part = await h.newInvoice(3600, { cancel_url: 'https://shop.example/cart' });
  await h.pay(part.id, { amount: '5.00' });
  // Contract §21: a part-payment still confirming, with what is left to pay shown beside it.
  const confirmingPart = await h.newInvoice();
  await h.pay(confirmingPart.id, { amount: '10.00', confirmed: false });
  const back = await h.newInvoice(3600, { redirect_url: 'https://shop.example/orders/1' });
  await h.pay(back.id);
  // A branded page: the brand colour's derived text must pass axe's contrast check in both schemes.
  const branded = await h.newInvoice(5400);
  const { project_id } = await h.t.database.db
    .selectFrom('invoices')
    .select('project_id')
    .where('id', '=', branded.id)
    .executeTakeFirstOrThrow();
  await h.t.app.inject({
    method: 'PATCH',
    url: `/v1/admin/projects/${project_id}/branding`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { brand_color: '#0e7490' },
  });
  // Contract §15: "Pay with" on a USD invoice, with a payment it cannot credit; and a paid one.
  const methods = await sandboxProject(h.t.app, ADMIN_TOKEN, {
    currency: 'USD',
    payment_methods: [
      // Test networks only beside the sandbox (contract §21).
      { network: 'tron-nile', currency: 'USDT' },
      { network: 'polygon-amoy', currency: 'USDC' },
      { network: 'sandbox', currency: 'USDC' },
    ],
    evm_xpub: TEST_XPUB,
    tron_xpub: TRON_TEST_XPUB,
  });
  const choosing = await methods('25.00');
  await observeOne(
    h.t.app.db,
    choosing.id,
    {
      kind: 'payment',
      network: 'ethereum',
      currency: 'USDT',
      txHash: `0x${'ee'.repeat(32)}`,
      amount: money('25.00'),
      confirmed: true,
      accepted: false,
    },
    { now: h.clock(), publicBaseUrl: h.t.app.config.publicBaseUrl },
  );
  const methodsPaid = await methods('25.00');
  await h.pay(methodsPaid.id, { currency: 'USDC' });
  extra = {
    methods: `/pay/${choosing.id}?method=polygon-amoy:USDC`,
    'methods-paid': `/pay/${methodsPaid.id}`,
    branded: `/pay/${branded.id}`,
    'part-paid': `/pay/${part.id}`,
    'part-detected': `/pay/${confirmingPart.id}`,
    'paid-return': `/pay/${back.id}`,
    'waiting-ru': `/pay/${h.ids.waiting}?lang=ru`,
    'waiting-zh': `/pay/${h.ids.waiting}?lang=zh`,
  };
});
afterAll(async () => {
  await h?.close();
});

describe.skipIf(skipAudit)('accessibility (axe-core)', () => {
  test.each(Object.entries(VIEWPORTS).map(([device, viewport]) => ({ device, viewport })))(
    'no serious or critical violation, light or dark, and no sideways scrolling in any state: $device',
    async ({ viewport }) => {
      // Only this test lifts the CSP, so that axe's own script can be injected.
      const page = await h.open('', { viewport, bypassCSP: true });
      const found: string[] = [];
      for (const state of [...STATES, 'not-found', 'tron', ...Object.keys(extra)]) {
        const id =
          state === 'not-found' ? 'inv_missing' : state === 'tron' ? tronInvoice : h.ids[state as State];
        await page.goto(`${h.base}${extra[state] ?? `/pay/${id}`}`);
        found.push(...(await accessibilityProblems(page, state, viewport.width)));
      }
      await page.context().close();
      expect(found).toEqual([]);
    },
    60_000,
  );
});
