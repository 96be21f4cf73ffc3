import type { ProjectRow } from '../merchants/merchant.table.js';
import { newOnceToken } from '../users/form-results.js';
import { type Html, html } from '../web/html.js';
import { documentShell } from '../web/layout.js';
import { dashboardAssets } from './assets.js';
import type { DashboardContext } from './context.js';

export const ROOT = '/dashboard';

const NAV = [
  { href: `${ROOT}`, label: 'Overview', owner: false },
  { href: `${ROOT}/invoices`, label: 'Invoices', owner: false },
  { href: `${ROOT}/refunds`, label: 'Refunds', owner: false },
  { href: `${ROOT}/payment-links`, label: 'Payment links', owner: false },
  { href: `${ROOT}/api-keys`, label: 'API keys', owner: true },
  { href: `${ROOT}/webhooks`, label: 'Webhooks', owner: false },
  { href: `${ROOT}/collections`, label: 'Collections', owner: false },
  { href: `${ROOT}/pos`, label: 'Point of sale', owner: true },
  { href: `${ROOT}/settings`, label: 'Settings', owner: true },
  { href: `${ROOT}/team`, label: 'Team', owner: true },
] as const;

export type Section = (typeof NAV)[number]['label'];

/** The document: the shared one (web/layout.ts) with the dashboard's stylesheet and script. */
export function documentHtml(title: string, body: Html): string {
  const { css, js } = dashboardAssets();
  return documentShell({
    lang: 'en',
    title: `${title} · Paydesk`,
    stylesheets: [`${ROOT}/assets/${css.name}`],
    script: `${ROOT}/assets/${js.name}`,
    body,
  });
}

/** The hidden field every state-changing form carries (see guard.ts). */
export function csrf(ctx: DashboardContext): Html {
  // The one-time token makes each rendering of a form a form sent once (once.ts).
  return html`<input type="hidden" name="_csrf" value="${ctx.session.csrfToken}"><input type="hidden" name="_once" value="${newOnceToken()}">`;
}

/** A signed-in page: top bar (project, user, sign-out), the navigation landmark, then the page. */
export function shell(ctx: DashboardContext, section: Section | null, title: string, main: Html): string {
  const owner = ctx.session.role === 'owner';
  const links = NAV.filter((n) => owner || !n.owner).map(
    (n) =>
      html`<li><a href="${n.href}"${section === n.label ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
  );
  const body = html`<a class="skip-link" href="#main">Skip to content</a>
<header class="topbar">
<a class="brand" href="${ROOT}"><span class="brand-mark" aria-hidden="true">P</span>Paydesk</a>
${ctx.projects.length > 1 ? projectSelect(ctx) : html`<span class="user">${ctx.project.name}</span>`}
<a class="user" href="${ROOT}/account">${ctx.session.email}</a>
<form method="post" action="${ROOT}/sign-out">${csrf(ctx)}<button type="submit" class="button button-small">Sign out</button></form>
</header>
<nav class="nav" aria-label="Dashboard"><ul>${links}</ul></nav>
<main id="main" class="main" tabindex="-1">
${main}
</main>`;
  return documentHtml(title, body);
}

function projectSelect(ctx: DashboardContext): Html {
  const option = (p: ProjectRow) =>
    html`<option value="${p.id}"${p.id === ctx.project.id ? html` selected` : ''}>${p.name}</option>`;
  return html`<form class="project-form" method="post" action="${ROOT}/project">${csrf(ctx)}
<label for="project" class="visually-hidden">Project</label>
<select id="project" name="project_id" data-autosubmit>${ctx.projects.map(option)}</select>
<button type="submit" class="button button-small" data-without-script>Switch</button>
</form>`;
}

/** A page outside the shell (sign-in, invite): one centred panel. */
export function authPage(title: string, panel: Html): string {
  return documentHtml(title, html`<main class="auth"><div class="panel">${panel}</div></main>`);
}

/** Field errors of a refused form, above it, announced. */
/** A message on a page: plain words, or a field rule's words with the rule's name (as the API says it). */
export type PageMessage = string | { readonly text: string; readonly rule: string };

function message(m: PageMessage): Html {
  return typeof m === 'string' ? html`${m}` : html`<span data-rule="${m.rule}">${m.text}</span>`;
}

export function errorSummary(messages: readonly PageMessage[]): Html {
  if (messages.length === 0) return html``;
  return html`<div class="alert" role="alert">${
    messages.length === 1
      ? message(messages[0] as PageMessage)
      : html`<ul>${messages.map((m) => html`<li>${message(m)}</li>`)}</ul>`
  }</div>`;
}

export function badge(value: string): Html {
  return html`<span class="badge badge-${value}">${value}</span>`;
}

export function time(d: Date | null | undefined): Html {
  if (!d) return html`<span class="muted">—</span>`;
  const iso = d.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
