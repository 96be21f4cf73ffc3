import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice } from '../../test/app.js';
import { skipBrowserTests } from '../../test/browser/chromium.js';
import { type DashboardHarness, OWNER, startDashboardHarness } from '../../test/browser/dashboard.js';

let h: DashboardHarness;
beforeAll(async () => {
  if (!skipBrowserTests) h = await startDashboardHarness();
});
afterAll(async () => {
  await h?.close();
});

/** A phone of 375 CSS px (iPhone SE, mini): the narrowest the dashboard is made for. */
const PHONE = { width: 375, height: 667 };

describe.skipIf(skipBrowserTests)('the invoice list on a 375 px phone', () => {
  test('one card per invoice: every column named and in sight, nothing past the panel’s edge, the page never sideways', async () => {
    for (let i = 0; i < 3; i++) {
      await createInvoice(h.t.app, h.m, {
        amount: '1234567.89',
        order_id: `order-with-a-long-reference-${i}`,
      });
    }
    const page = await h.signedIn(OWNER, { viewport: PHONE });
    await page.goto(`${h.base}/dashboard/invoices`);
    const region = page.getByRole('region', { name: 'Invoices, newest first' });
    await region.waitFor();
    if (process.env.NARROW_SHOT) await page.screenshot({ path: process.env.NARROW_SHOT, fullPage: true });
    const layout = await region.evaluate((panel) => {
      const doc = (globalThis as any).document.documentElement;
      const style = (globalThis as any).getComputedStyle(panel);
      return {
        pageWidth: doc.scrollWidth,
        overflowX: style.overflowX,
        panelRight: panel.getBoundingClientRect().right,
        scrollable: panel.scrollWidth - panel.clientWidth,
      };
    });
    expect(layout.pageWidth).toBeLessThanOrEqual(PHONE.width);
    expect(layout.panelRight).toBeLessThanOrEqual(PHONE.width);
    // Nothing hides past the panel's edge: every row is a card, every cell within the panel, named.
    expect(layout.scrollable).toBe(0);
    const cells = await region.locator('tbody td').evaluateAll((tds) =>
      tds.map((td) => ({
        right: td.getBoundingClientRect().right,
        label: (globalThis as any).getComputedStyle(td, '::before').content,
      })),
    );
    expect(cells).toHaveLength(15);
    for (const cell of cells) expect(cell.right).toBeLessThanOrEqual(layout.panelRight);
    expect(cells.slice(0, 5).map((c) => c.label)).toEqual(
      ['Invoice', 'Order', 'Amount', 'Status', 'Created'].map((l) => `"${l}"`),
    );
    await page.context().close();
  }, 60_000);
});
