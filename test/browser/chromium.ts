import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

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
