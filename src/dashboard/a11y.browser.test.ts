import { mkdir } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createInvoice } from '../../test/app.js';
import { accessibilityProblems, VIEWPORTS } from '../../test/browser/axe.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type DashboardHarness, OWNER, startDashboardHarness } from '../../test/browser/dashboard.js';
import { TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { onPostgres } from '../../test/database.js';

// The audit reads the pages' HTML, which the database under them does not change: it runs once per CI
// run, in the PGlite run, rather than twice over the same markup.
const skipAudit = skipBrowserTests || onPostgres;

/**
 * Set to write every page's screenshot, dashboard-<page>-<scheme>-<device>.png (`1`: into
 * docs/screenshots/, which keeps only the few the docs show; anything else: that folder). The full
 * set is generated on demand, never committed; CI leaves the files alone.
 */
const target = process.env.DASHBOARD_SCREENSHOTS;
const SCREENSHOTS = Boolean(target);
const SHOTS_DIR =
  target && target !== '1'
    ? pathToFileURL(`${target}/`)
    : new URL('../../docs/screenshots/', import.meta.url);

let h: DashboardHarness;
let invoiceId: string;
let invitePath: string;
let linkPath: string;
beforeAll(async () => {
  if (skipAudit) return;
  h = await startDashboardHarness();
  const owner = await h.signedIn(OWNER);
  await owner.goto(`${h.base}/dashboard/webhooks/new`);
  await owner.getByLabel('Endpoint URL').fill(h.receiver.url);
  await owner.getByRole('button', { name: 'Add', exact: true }).click();
  await owner.getByLabel('Signing secret').waitFor();
  await owner.context().close();
  const amounts = ['25.00', '12.50', '99.90', '7.00', '150.00', '42.00', '18.75', '64.20'];
  for (const [i, amount] of amounts.entries()) {
    const id = (await createInvoice(h.t.app, h.m, { amount, order_id: `order-${1000 + i}` })).json().data.id;
    if (i % 2 === 0) await admin(h.t.app, 'POST', `/v1/admin/invoices/${id}/simulate-payment`, {});
    invoiceId ??= id;
  }
  await h.receiver.waitFor(4);
  // A payment link where the payer chooses the amount and gives an e-mail: its public page's fields.
  const link = await h.t.app.inject({
    method: 'POST',
    url: '/v1/merchant/payment-links',
    headers: h.m.auth,
    payload: { title: 'Tip jar', min_amount: '1.00', max_amount: '100.00', collect_email: true },
  });
  linkPath = new URL(link.json().data.url).pathname;
  // A refund of the first (paid) invoice, claimed by its payer: the Refunds page lists it with its QR code.
  const refund = await h.t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${invoiceId}/refunds`,
    headers: h.m.auth,
    payload: { amount: '10.00' },
  });
  await h.t.app.inject({
    method: 'POST',
    url: new URL(refund.json().data.refund.claim_url).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'method=sandbox%3AUSDT&address=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  });
  const { invite_url } = await admin(h.t.app, 'POST', `/v1/admin/accounts/${h.m.accountId}/users`, {
    email: 'new.colleague@acme.example',
    role: 'viewer',
  });
  invitePath = new URL(invite_url).pathname;
});
afterAll(async () => {
  await h?.close();
});

/** Each page of the dashboard, reached as a person would (some only through a form). */
const PAGES: Array<{ name: string; signedIn: boolean; reach: (page: Page) => Promise<unknown> }> = [
  { name: 'sign-in', signedIn: false, reach: (p) => p.goto(`${h.base}/dashboard/sign-in`) },
  { name: 'invite', signedIn: false, reach: (p) => p.goto(`${h.base}${invitePath}`) },
  { name: 'overview', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard`) },
  { name: 'invoices', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/invoices`) },
  { name: 'invoice', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/invoices/${invoiceId}`) },
  { name: 'refunds', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/refunds`) },
  { name: 'api-keys', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/api-keys`) },
  {
    name: 'api-key-revoke',
    signedIn: true,
    reach: async (p) => {
      await p.goto(`${h.base}/dashboard/api-keys`);
      await p.getByRole('button', { name: 'Revoke' }).first().click();
      await p.getByRole('dialog').waitFor();
    },
  },
  {
    name: 'api-key-created',
    signedIn: true,
    reach: async (p) => {
      await p.goto(`${h.base}/dashboard/api-keys/new`);
      await p.getByLabel('Name').fill('Shop backend');
      await p.getByRole('button', { name: 'Create key' }).click();
      await p.getByLabel('Secret key').waitFor();
    },
  },
  { name: 'payment-links', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/payment-links`) },
  {
    name: 'payment-link',
    signedIn: true,
    reach: async (p) => {
      await p.goto(`${h.base}/dashboard/payment-links/new`);
      await p.getByLabel('Title').fill('Logo design');
      await p.getByLabel(/^Price/).fill('450.00');
      await p.getByRole('button', { name: 'Create link' }).click();
      await p.getByLabel('HTML of the pay button').waitFor();
    },
  },
  { name: 'link-page', signedIn: false, reach: (p) => p.goto(`${h.base}${linkPath}?lang=es`) },
  { name: 'webhooks', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/webhooks`) },
  { name: 'webhook-new', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/webhooks/new`) },
  { name: 'collections', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/collections`) },
  {
    name: 'pos',
    signedIn: true,
    // Point of sale (issue 36): the till list after creating one, with its link and the form below.
    reach: async (p) => {
      await p.goto(`${h.base}/dashboard/pos`);
      await p.getByLabel('Name').fill('Counter 1');
      await p.getByLabel('PIN').fill('482913');
      await p.getByLabel('Items').fill('Espresso; 2.50; 7.7\nWater; 1.00');
      await p.getByRole('button', { name: 'Create till' }).click();
      await p.getByRole('status').filter({ hasText: 'Till created' }).waitFor();
    },
  },
  {
    name: 'settings',
    signedIn: true,
    reach: async (p) => {
      await p.goto(`${h.base}/dashboard/settings`);
      await p.getByLabel('USDT on TRON', { exact: true }).check();
      await p.getByLabel('TRON xpub').fill(TRON_TEST_XPUB);
      await p.getByRole('button', { name: 'Preview addresses' }).click();
      await p.getByRole('heading', { name: 'First deposit addresses (TRON)' }).waitFor();
    },
  },
  { name: 'team', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/team`) },
  { name: 'team-invite', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/team/invite`) },
  { name: 'account', signedIn: true, reach: (p) => p.goto(`${h.base}/dashboard/account`) },
];

describe.skipIf(skipAudit)('accessibility (axe-core) and layout of every dashboard page', () => {
  test.each(Object.entries(VIEWPORTS).map(([device, viewport]) => ({ device, viewport })))(
    'no serious or critical violation, light or dark, and no sideways scrolling: $device',
    async ({ device, viewport }) => {
      const options = { viewport, bypassCSP: true }; // only so that axe can be injected
      const signedIn = await h.signedIn(OWNER, options);
      const anonymous = await h.open('', options);
      const found: string[] = [];
      if (SCREENSHOTS) await mkdir(SHOTS_DIR, { recursive: true });
      for (const { name, signedIn: needsSession, reach } of PAGES) {
        const page = needsSession ? signedIn : anonymous;
        await reach(page);
        const shoot = async (scheme: string) => {
          if (!SCREENSHOTS) return;
          const file = new URL(`dashboard-${name}-${scheme}-${device}.png`, SHOTS_DIR);
          await page.screenshot({ path: file.pathname, fullPage: device === 'desktop' });
        };
        found.push(...(await accessibilityProblems(page, name, viewport.width, shoot)));
      }
      await signedIn.context().close();
      await anonymous.context().close();
      expect(found).toEqual([]);
    },
    120_000,
  );
});
