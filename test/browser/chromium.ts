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

let shared: Promise<Browser> | undefined;

/**
 * This worker's Chromium, shared by its browser test files: the suite runs without isolation, so a
 * worker keeps its modules from one file to the next, and a launch costs about a second where a
 * browser context (each page a harness opens has its own) is as isolated as a browser of its own.
 * A harness closes its contexts when its file ends; Playwright ends the browser with the worker.
 */
export function sharedChromium(): Promise<Browser> {
  if (!shared) {
    const launched = launchChromium();
    // A browser that failed to start or went away is launched afresh by the next file.
    const forget = () => {
      if (shared === launched) shared = undefined;
    };
    shared = launched;
    launched.then((browser) => browser.on('disconnected', forget), forget);
  }
  return shared;
}

/** Closes every context of the shared browser: what a file opened, the next one does not see. */
export async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()));
}

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
      // Headless Chromium opens a browser window per context, and each window loads the address
      // bar's suggestion popup, a WebUI page in a renderer of its own (chrome://omnibox-popup.top-chrome),
      // that no test sees: about 0.6 s of CPU per context, three quarters of what a context costs. The
      // spare renderer Chromium starts ahead of the next navigation is never used by another context.
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess',
    ],
  });
}

/**
 * Closes a page's browser context when the test that opened it ends. A payment page polls the server
 * every 2 s for as long as it is open: left open, a file's pages pile up and keep both the browser and
 * the app busy for the rest of the run. Pages opened outside a test close with the harness.
 */
export function closeAfterTest(context: BrowserContext): void {
  try {
    onTestFinished(() => context.close());
  } catch {
    // Not inside a test (a beforeAll): the harness's close() takes it.
  }
}
