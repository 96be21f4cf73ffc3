import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { admin, createMerchant, type Merchant, startTestApp, type TestApp } from '../app.js';
import { inviteAndAccept, PASSWORD } from '../dashboard.js';
import { watchedBuiltins } from '../watched-node.js';
import { type Receiver, startReceiver, startTestWorker } from '../webhooks.js';
import { closeAfterTest, closeContexts, sharedChromium } from './chromium.js';

export const OWNER = 'owner@acme.example';
export const VIEWER = 'viewer@acme.example';

export interface DashboardHarness {
  t: TestApp;
  base: string;
  browser: Browser;
  m: Merchant;
  receiver: Receiver;
  /** CSP reports and script errors seen by any page. */
  problems: string[];
  /** A fresh browser context signed in as `email`, on the Overview. */
  signedIn(email: string, options?: BrowserContextOptions): Promise<Page>;
  open(url: string, options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The real app on a real port with its webhook delivery worker, a merchant with two projects, an
 * owner and a viewer, a local webhook receiver, and the system Chromium.
 */
export async function startDashboardHarness(): Promise<DashboardHarness> {
  const t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true', ...watchedBuiltins() } });
  const worker = await startTestWorker(t);
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const m = await createMerchant(t.app, { name: 'Acme Coffee Roasters' });
  await admin(t.app, 'POST', '/v1/admin/projects', { account_id: m.accountId, name: 'Acme Tea' });
  await inviteAndAccept(t.app, m.accountId, OWNER);
  await inviteAndAccept(t.app, m.accountId, VIEWER, 'viewer');
  const receiver = await startReceiver();
  const browser = await sharedChromium();
  const problems: string[] = [];
  const open = async (url: string, options: BrowserContextOptions = {}) => {
    const context = await browser.newContext(options);
    closeAfterTest(context);
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (/Content.Security.Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    if (url) await page.goto(`${base}${url}`);
    return page;
  };
  return {
    t,
    base,
    browser,
    m,
    receiver,
    problems,
    open,
    async signedIn(email, options = {}) {
      const page = await open('/dashboard', options);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      return page;
    },
    async close() {
      await closeContexts(browser);
      await worker.stop();
      await receiver.close();
      await t.close();
    },
  };
}
