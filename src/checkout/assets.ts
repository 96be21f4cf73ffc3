import { brandStylesheet, checkBrandColor } from '../branding/contrast.js';
import { type Asset, type AssetSet, loadAssets } from '../web/assets.js';

// Read from the source tree both under tsx and from dist, as web/assets.ts explains.
const DIR = new URL('../../src/checkout/assets/', import.meta.url);

let loaded: AssetSet | undefined;

/** The page's stylesheet and script, read once (at start-up: routes.ts calls this when registered). */
export function checkoutAssets(): AssetSet {
  loaded ??= loadAssets(new URL('pay.css', DIR), new URL('pay.js', DIR));
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
