import { type Html, html } from './html.js';

/**
 * The document every page for people is built on, the payment page's and the dashboard's alike: our
 * own stylesheets and one deferred script, nothing inline (the CSP allows neither), never indexed,
 * light and dark schemes.
 */
export function documentShell(opts: {
  lang: string;
  title: string;
  stylesheets: readonly string[];
  script: string;
  /** More of the head after the script: inert data blocks only (`<script type="application/json">`). */
  head?: Html | undefined;
  body: Html;
}): string {
  return html`<!doctype html>
<html lang="${opts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${opts.title}</title>
<link rel="icon" href="data:,">
${opts.stylesheets.map((href) => html`<link rel="stylesheet" href="${href}">\n`)}<script src="${opts.script}" defer></script>
${opts.head ?? ''}
</head>
<body>
${opts.body}
</body>
</html>
`.toString();
}
