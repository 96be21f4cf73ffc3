import { type Asset, checkoutAssets } from './assets.js';
import { type Html, html } from './html.js';
import { icons } from './icons.js';

/**
 * The relative path from a request's path to `/pay/`, so every link on the page is relative and the
 * page works behind a proxy that serves Paydesk under a sub-path (`/pay/inv_x` → ``, `/pay/a/b` → `../`).
 */
export function payRoot(url: string): string {
  const path = url.split('?')[0] as string;
  if (!path.startsWith('/pay/')) return 'pay/';
  return '../'.repeat(path.slice('/pay/'.length).split('/').length - 1);
}

const assetUrl = (root: string, asset: Asset) => `${root}assets/${asset.name}`;

/** The document around a page: no inline script or style anywhere (the CSP allows neither). */
export function documentHtml(opts: { title: string; root: string; main: Html }): string {
  const { css, js } = checkoutAssets();
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${opts.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl(opts.root, css)}">
<script src="${assetUrl(opts.root, js)}" defer></script>
</head>
<body>
<div class="page">
${opts.main}
<div id="announcer" class="visually-hidden" role="status"></div>
<footer class="footer">${icons.lock}<span>Secured by Paydesk</span></footer>
</div>
</body>
</html>
`.toString();
}

/** A page for when there is no checkout to show (404, 429…): same look, one message. */
export function messagePage(root: string, heading: string, text: string): string {
  const main = html`<main class="card card-message">
<div class="result result-neutral">${icons.search}<h1>${heading}</h1><p>${text}</p></div>
</main>`;
  return documentHtml({ title: `${heading} · Paydesk`, root, main });
}
