import { LANGUAGE_CODES, LANGUAGES, type Translator } from '../checkout/i18n/i18n.js';
import { type Html, html } from '../web/html.js';
import { documentShell } from '../web/layout.js';
import { posAssets } from './assets.js';

/**
 * Every link and form of a till's pages is relative to /pos/, as the payment page's are to /pay/, so
 * the till works behind a proxy that serves Paydesk under a sub-path (`/pos/till_x` → ``).
 */
export function posRoot(url: string): string {
  const path = url.split('?')[0] as string;
  if (!path.startsWith('/pos/')) return 'pos/';
  return '../'.repeat(path.slice('/pos/'.length).split('/').length - 1);
}

export const langQuery = (tr: Translator) => `?lang=${tr.lang}`;

function languageNav(tr: Translator): Html {
  return html`<nav class="languages" aria-label="${tr.t('language.label')}"><ul>${LANGUAGE_CODES.map(
    (code) =>
      html`<li><a href="?lang=${code}" hreflang="${code}" lang="${code}"${code === tr.lang ? html` aria-current="true"` : ''}>${LANGUAGES[code].name}</a></li>`,
  )}</ul></nav>`;
}

/** A till page: the shared document with the till's assets; the language links unless told not to. */
export function tillDocument(opts: {
  root: string;
  title: string;
  tr: Translator;
  main: Html;
  languages?: boolean;
}): string {
  const { css, js } = posAssets();
  return documentShell({
    lang: opts.tr.lang,
    title: `${opts.title} · Paydesk`,
    stylesheets: [`${opts.root}assets/${css.name}`],
    script: `${opts.root}assets/${js.name}`,
    body: html`<div class="till-page">
${opts.main}
${opts.languages === false ? '' : html`<footer class="till-footer">${languageNav(opts.tr)}</footer>`}
</div>`,
  });
}

/** One message (not found, too many requests…), with a way back when there is one. */
export function tillMessage(
  root: string,
  tr: Translator,
  heading: string,
  text: string,
  back?: string,
): string {
  const main = html`<main class="till-card till-message">
<h1>${heading}</h1><p>${text}</p>
${back ? html`<p><a class="till-button" href="${back}">${tr.t('pos.back')}</a></p>` : ''}
</main>`;
  return tillDocument({ root, title: heading, tr, main, languages: false });
}
