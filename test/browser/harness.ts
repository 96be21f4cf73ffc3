import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { ADMIN_TOKEN, manualClock, startTestApp, type TestApp } from '../app.js';
import { watchedBuiltins } from '../watched-node.js';
import { closeAfterTest, closeContexts, sharedChromium } from './chromium.js';
import { type State, sandboxProject, seedStates, simulate } from './seed.js';

export interface Harness {
  t: TestApp;
  base: string;
  clock: ReturnType<typeof manualClock>;
  browser: Browser;
  ids: Record<State, string>;
  /** Creates an open invoice on a project with the given TTL (seconds); `extra` adds fields (redirect_url). */
  newInvoice(ttlSeconds?: number, extra?: object): Promise<{ id: string; pay_address: string }>;
  /** The admin simulator (contract §11). */
  pay(id: string, body?: object): Promise<unknown>;
  /**
   * A page in a fresh context; CSP reports and script errors are collected in `problems`. With
   * `clock`, the page's timers run on Playwright's clock, moved by hand (`page.clock.runFor`).
   */
  open(url: string, options?: BrowserContextOptions & { clock?: boolean }): Promise<Page>;
  problems: string[];
  close(): Promise<void>;
}

/** The real app on a real port, one invoice per state, and the system Chromium. */
export async function startHarness(): Promise<Harness> {
  const clock = manualClock();
  const t = await startTestApp({ clock, env: watchedBuiltins() });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const ids = await seedStates(t.app, ADMIN_TOKEN, clock);
  const browser = await sharedChromium();
  const projects = new Map<number, Awaited<ReturnType<typeof sandboxProject>>>();
  const problems: string[] = [];
  return {
    t,
    base,
    clock,
    browser,
    ids,
    problems,
    async newInvoice(ttlSeconds = 3600, extra = {}) {
      let create = projects.get(ttlSeconds);
      if (!create) {
        create = await sandboxProject(t.app, ADMIN_TOKEN, { invoice_ttl_seconds: ttlSeconds });
        projects.set(ttlSeconds, create);
      }
      return create('25.00', extra);
    },
    pay: (id, body = {}) => simulate(t.app, ADMIN_TOKEN, id, body),
    async open(url, { clock, ...options } = {}) {
      // The waiting and detected views animate (a pulse, a spinner): each open page would repaint 60
      // times a second, a sixth of a core, for as long as it is open. A test may ask for motion.
      const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
      closeAfterTest(context);
      if (clock) await context.clock.install();
      const page = await context.newPage();
      page.on('console', (msg) => {
        if (/Content.Security.Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      if (url) await page.goto(`${base}${url}`);
      return page;
    },
    async close() {
      await closeContexts(browser);
      await t.close();
    },
  };
}
