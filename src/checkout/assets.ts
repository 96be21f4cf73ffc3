import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { brandStylesheet, checkBrandColor } from '../branding/contrast.js';

export interface Asset {
  /** The file name with its content hash (`pay.3f9a1c2b7d.css`): a new URL whenever the content changes. */
  name: string;
  body: Buffer;
  type: string;
  etag: string;
}

// Read from src/checkout/assets both when running from src (tsx) and from dist (dist/checkout/ is as
// deep as src/checkout/), as the migrations are: tsc does not copy non-TypeScript files.
const DIR = new URL('../../src/checkout/assets/', import.meta.url);

function load(file: string, type: string): Asset {
  const body = readFileSync(new URL(file, DIR));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, body, type, etag: `"${hash}"` };
}

let loaded: { css: Asset; js: Asset; byName: Map<string, Asset> } | undefined;

/** The page's stylesheet and script, read once (at start-up: routes.ts calls this when registered). */
export function checkoutAssets() {
  if (!loaded) {
    const css = load('pay.css', 'text/css; charset=utf-8');
    const js = load('pay.js', 'text/javascript; charset=utf-8');
    loaded = { css, js, byName: new Map([css, js].map((a) => [a.name, a])) };
  }
  return loaded;
}

/**
 * A project's brand colour as a stylesheet of its own (the CSP allows no inline style): its URL is
 * the colour, so it is cached for good, and only colours that pass the contrast rule exist.
 */
export function brandAsset(name: string): Asset | undefined {
  const hex = /^brand-([0-9a-f]{6})\.css$/.exec(name)?.[1];
  if (!hex || !checkBrandColor(`#${hex}`).ok) return undefined;
  return {
    name,
    body: Buffer.from(brandStylesheet(`#${hex}`)),
    type: 'text/css; charset=utf-8',
    etag: `"brand-${hex}"`,
  };
}

export const brandAssetName = (color: string) => `brand-${color.slice(1)}.css`;
