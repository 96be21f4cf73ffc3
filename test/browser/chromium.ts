import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { onTestFinished } from 'vitest';

/** The system's Chromium (Debian's package); playwright-core never downloads a browser of its own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Browser tests skip where there is no Chromium, except on CI (CI=true), where a missing browser is
 * a broken environment and must fail rather than pass quietly.
 */
export const skipBrowserTests = !existsSync(CHROMIUM_PATH) && process.env.CI !== 'true';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Closes a page's browser context when the test that opened it ends. A payment page polls the server
 * every 2 s for as long as it is open: left open, a file's pages pile up and keep both the browser and
 * the app busy for the rest of the run. Pages opened outside a test close with the browser.
 */
export function closeAfterTest(context: BrowserContext): void {
  try {
    onTestFinished(() => context.close());
  } catch {
    // Not inside a test (a beforeAll): the browser's close() takes it.
  }
}
