import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Asset } from '../checkout/assets.js';

// Read from the source tree both under tsx and from dist, as checkout/assets.ts does.
const DIR = new URL('../../src/dashboard/assets/', import.meta.url);
const PAY_CSS = new URL('../../src/checkout/assets/pay.css', import.meta.url);

function asset(file: string, body: Buffer, type: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, body, type, etag: `"${hash}"` };
}

/**
 * One set of design tokens with the payment page: the dashboard's stylesheet starts with pay.css's
 * custom properties (its `:root` blocks, light and dark), so a change of colour there reaches both.
 */
function tokens(): string {
  const css = readFileSync(PAY_CSS, 'utf8');
  const end = css.indexOf('\n*,');
  return end > 0 ? css.slice(0, end) : '';
}

let loaded: { css: Asset; js: Asset; byName: Map<string, Asset> } | undefined;

export function dashboardAssets() {
  if (!loaded) {
    const css = asset(
      'dashboard.css',
      Buffer.from(`${tokens()}\n${readFileSync(new URL('dashboard.css', DIR), 'utf8')}`),
      'text/css; charset=utf-8',
    );
    const js = asset(
      'dashboard.js',
      readFileSync(new URL('dashboard.js', DIR)),
      'text/javascript; charset=utf-8',
    );
    loaded = { css, js, byName: new Map([css, js].map((a) => [a.name, a])) };
  }
  return loaded;
}
