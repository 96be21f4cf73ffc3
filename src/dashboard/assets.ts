import { type AssetSet, loadAssets } from '../web/assets.js';

// Read from the source tree both under tsx and from dist, as web/assets.ts explains.
const DIR = new URL('../../src/dashboard/assets/', import.meta.url);

let loaded: AssetSet | undefined;

/** The dashboard's stylesheet (after the shared tokens and base) and script, read once. */
export function dashboardAssets(): AssetSet {
  loaded ??= loadAssets(new URL('dashboard.css', DIR), new URL('dashboard.js', DIR));
  return loaded;
}
