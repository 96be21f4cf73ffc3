import type { Asset } from '../web/assets.js';
import { type Html, html, raw } from '../web/html.js';
import { documentShell } from '../web/layout.js';
import { brandAssetName, checkoutAssets } from './assets.js';
import { LANGUAGE_CODES, LANGUAGES, type Translator } from './i18n/i18n.js';
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

/**
 * The page's query string: the chosen payment method, then the language (`?method=tron:USDT&lang=es`).
 * The colon stays as it is, as the contract writes it: a query may hold one unescaped.
 */
export function pageQuery(params: { method?: string | undefined; lang?: string | undefined }): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(value).replace(/%3A/g, ':')}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

const assetUrl = (root: string, asset: Asset) => `${root}assets/${asset.name}`;

/**
 * JSON inside a <script type="application/json"> data block: inert (no script runs, the CSP is not
 * involved), and `<`, `>` and `&` escaped so that no text a merchant chose can close the element.
 */
function jsonData(value: unknown): Html {
  return raw(
    JSON.stringify(value).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}

/**
 * Links to the page in each language; relative (`?lang=es`), so they keep the page's path, and they
 * keep the chosen payment method (pay.js updates them when the payer chooses another).
 */
function languageNav(tr: Translator, method: string | undefined): Html {
  return html`<nav class="languages" aria-label="${tr.t('language.label')}"><ul>${LANGUAGE_CODES.map(
    (code) =>
      html`<li><a href="${pageQuery({ method, lang: code })}" hreflang="${code}" lang="${code}"${code === tr.lang ? html` aria-current="true"` : ''}>${LANGUAGES[code].name}</a></li>`,
  )}</ul></nav>`;
}

/** The document around a page: the shared document (web/layout.ts) with the page's own head and footer. */
export function documentHtml(opts: {
  title: string;
  root: string;
  main: Html;
  tr: Translator;
  /** Messages pay.js shows by itself, read from a JSON data block (never executable inline script). */
  scriptMessages?: Record<string, string>;
  /** The project's brand colour (`#rrggbb`), loaded as its own stylesheet. */
  brandColor?: string | null | undefined;
  /** The footer's language links (not on message pages: their URL may be anything). */
  languages?: boolean;
  /** The payment method chosen in the URL, which the language links keep. */
  method?: string | undefined;
}): string {
  const { css, js } = checkoutAssets();
  const tr = opts.tr;
  const stylesheets = [assetUrl(opts.root, css)];
  if (opts.brandColor) stylesheets.push(`${opts.root}assets/${brandAssetName(opts.brandColor)}`);
  return documentShell({
    lang: tr.lang,
    title: opts.title,
    stylesheets,
    script: assetUrl(opts.root, js),
    head: opts.scriptMessages
      ? html`<script type="application/json" id="pay-messages">${jsonData(opts.scriptMessages)}</script>`
      : undefined,
    body: html`<div class="page">
${opts.main}
<div id="announcer" class="visually-hidden" role="status"></div>
<footer class="footer"><p class="secured">${icons.lock}<span>${tr.t('footer')}</span></p>${opts.languages === false ? '' : languageNav(tr, opts.method)}</footer>
</div>`,
  });
}

/** A page for when there is no checkout to show (404, 429…): same look, one message. */
export function messagePage(root: string, tr: Translator, heading: string, text: string): string {
  const main = html`<main class="card card-message">
<div class="result result-neutral">${icons.search}<h1>${heading}</h1><p>${text}</p></div>
</main>`;
  return documentHtml({ title: `${heading} · Paydesk`, root, main, tr, languages: false });
}
