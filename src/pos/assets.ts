import { type AssetSet, loadAssets } from '../web/assets.js';

// Read from the source tree both under tsx and from dist, as web/assets.ts explains.
const DIR = new URL('../../src/pos/assets/', import.meta.url);

let loaded: AssetSet | undefined;

/** The till's stylesheet (the shared base in front) and script, read once. */
export function posAssets(): AssetSet {
  loaded ??= loadAssets(new URL('pos.css', DIR), new URL('pos.js', DIR));
  return loaded;
}
