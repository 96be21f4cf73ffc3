import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let axeUrl: Promise<string> | undefined;

/**
 * axe-core's script, served to the pages under test by a server of this worker's own, cacheable: a
 * script inlined into each page (Playwright's `addScriptTag({ path })`) is compiled afresh on every
 * page, about 0.1 s of the renderer's CPU each time, where one loaded by URL is compiled once and
 * then taken from V8's code cache (about 20 ms).
 */
function axeScriptUrl(): Promise<string> {
  axeUrl ??= (async () => {
    const body = await readFile(AXE);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=86400' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.unref();
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/axe.min.js`;
  })();
  return axeUrl;
}

export const VIEWPORTS = { phone: { width: 375, height: 812 }, desktop: { width: 1280, height: 900 } };

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/**
 * What axe-core finds serious or critical on the page as it is, in both colour schemes, and whether it
 * scrolls sideways. Every rule runs in the light scheme; the dark one changes only colours (the
 * stylesheets switch custom properties on prefers-color-scheme), so only colour contrast runs again
 * there, on the same page, without loading it twice. The page must have been opened with
 * `bypassCSP: true` (axe's script is injected). `onScheme` runs in each scheme (screenshots).
 */
export async function accessibilityProblems(
  page: Page,
  name: string,
  viewportWidth: number,
  onScheme?: (scheme: 'light' | 'dark') => Promise<unknown>,
): Promise<string[]> {
  const found: string[] = [];
  await page.emulateMedia({ colorScheme: 'light' });
  await page.addScriptTag({ url: await axeScriptUrl() });
  for (const scheme of ['light', 'dark'] as const) {
    if (scheme === 'dark') await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await page.evaluate(
      () => (globalThis as any).matchMedia('(prefers-color-scheme: dark)').matches,
    );
    if (dark !== (scheme === 'dark')) throw new Error(`the page did not switch to the ${scheme} scheme`);
    const violations: Violation[] = await page.evaluate(async (onlyContrast) => {
      const axe = (globalThis as any).axe;
      const options = onlyContrast
        ? { resultTypes: ['violations'], runOnly: { type: 'rule', values: ['color-contrast'] } }
        : { resultTypes: ['violations'] };
      return (await axe.run((globalThis as any).document, options)).violations;
    }, scheme === 'dark');
    for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
      found.push(
        `${name} (${scheme}): ${v.id} (${v.help}) at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
      );
    }
    await onScheme?.(scheme);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
  if (width > viewportWidth) found.push(`${name}: the page is ${width} px wide, wider than the screen`);
  return found;
}
