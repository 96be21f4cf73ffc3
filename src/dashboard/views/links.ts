import type { Invoice } from '../../invoices/invoice.js';
import type { PaymentLink } from '../../links/link.js';
import { type Html, html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { badge, csrf, ROOT, shell } from '../layout.js';

const priceOf = (l: PaymentLink) =>
  l.amount !== null
    ? `${l.amount} ${l.currency}`
    : `${l.min_amount ?? 'any'} – ${l.max_amount ?? 'any'} ${l.currency} (payer chooses)`;

const usesOf = (l: PaymentLink) => (l.max_uses === null ? `${l.uses}` : `${l.uses} of ${l.max_uses}`);

export function linksPage(ctx: DashboardContext, links: PaymentLink[]): string {
  const rows = links.map(
    (l) => html`<tr>
<td data-label="Title"><a href="${ROOT}/payment-links/${l.id}">${l.title}</a></td>
<td data-label="Price">${priceOf(l)}</td>
<td data-label="Invoices">${usesOf(l)}</td>
<td data-label="Status">${badge(l.active ? 'active' : 'inactive')}</td>
</tr>`,
  );
  const owner = ctx.session.role === 'owner';
  return shell(
    ctx,
    'Payment links',
    'Payment links',
    html`<div class="page-head"><h1>Payment links</h1>
${owner ? html`<form method="get" action="${ROOT}/payment-links/new"><button type="submit" class="button button-primary">Create link</button></form>` : ''}</div>
<p class="muted">A page to share (in a message, an e-mail, on your site) where a payer makes an invoice by pressing "Pay". Opening the page makes nothing.</p>
<div class="panel" role="region" aria-label="Payment links" tabindex="0"><table>
<caption class="visually-hidden">Payment links</caption>
<thead><tr><th scope="col">Title</th><th scope="col">Price</th><th scope="col">Invoices</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="4" class="muted">No payment links yet.</td></tr>`}</tbody>
</table></div>`,
  );
}

export function newLinkPage(ctx: DashboardContext): string {
  const text = (name: string, label: string, hint: string, extra: Html | string = '') =>
    html`<div class="field"><label for="${name}">${label}</label><input id="${name}" name="${name}" type="text" autocomplete="off" aria-describedby="${name}-hint"${extra}>
<p class="hint" id="${name}-hint">${hint}</p></div>`;
  return shell(
    ctx,
    'Payment links',
    'Create payment link',
    html`<h1>Create payment link</h1>
<div class="panel"><form method="post" action="${ROOT}/payment-links">${csrf(ctx)}
${text('title', 'Title', 'What the payer buys, such as "Logo design, first draft".', html` required maxlength="200"`)}
${text('description', 'Description', 'Optional, shown under the title.', html` maxlength="500"`)}
${text('amount', `Price (${ctx.project.currency})`, 'A fixed price, such as 25.00. Leave empty to let the payer choose.', html` inputmode="decimal"`)}
${text('min_amount', 'Least the payer may choose', 'Optional, only without a fixed price.', html` inputmode="decimal"`)}
${text('max_amount', 'Most the payer may choose', 'Optional, only without a fixed price.', html` inputmode="decimal"`)}
${text('max_uses', 'Invoices it may make', 'Optional: 1 for a one-off invoice link; empty for no limit.', html` inputmode="numeric"`)}
<div class="field"><label><input type="checkbox" name="collect_email" value="true"> Ask the payer for an e-mail address</label></div>
<div class="actions"><button type="submit" class="button button-primary">Create link</button><a class="button" href="${ROOT}/payment-links">Cancel</a></div>
</form></div>`,
  );
}

/** The pay button: a plain form posting to the link, for any static page (no script). */
export function paySnippet(l: PaymentLink): string {
  return `<form method="post" action="${l.url}">
  <button type="submit">Pay ${l.amount !== null ? `${l.amount} ${l.currency}` : 'now'}</button>
</form>`;
}

export function linkPage(
  ctx: DashboardContext,
  l: PaymentLink,
  invoices: Invoice[],
  notice?: string,
): string {
  const owner = ctx.session.role === 'owner';
  const rows = invoices.map(
    (i) => html`<tr>
<td data-label="Invoice"><a href="${ROOT}/invoices/${i.id}"><code>${i.id}</code></a></td>
<td data-label="Amount">${i.amount} ${i.currency}</td>
<td data-label="Status">${badge(i.status)}</td>
<td data-label="Created">${i.created_at}</td>
</tr>`,
  );
  const toggle = owner
    ? html`<form method="post" action="${ROOT}/payment-links/${l.id}/active">${csrf(ctx)}<input type="hidden" name="active" value="${l.active ? 'false' : 'true'}"><button type="submit" class="button${l.active ? ' button-danger' : ''}">${l.active ? 'Deactivate' : 'Activate'}</button></form>`
    : '';
  return shell(
    ctx,
    'Payment links',
    l.title,
    html`<div class="page-head"><h1>${l.title}</h1>${toggle}</div>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<div class="panel"><dl class="details">
<div><dt>Link</dt><dd><a href="${l.url}"><code>${l.url}</code></a></dd></div>
<div><dt>Price</dt><dd>${priceOf(l)}</dd></div>
<div><dt>Invoices made</dt><dd>${usesOf(l)}</dd></div>
<div><dt>Status</dt><dd>${badge(l.active ? 'active' : 'inactive')}</dd></div>
</dl></div>
<h2 id="snippet-heading">Pay button</h2>
<p class="muted">Paste this into any web page, even a static one: the button opens the link's page, where the payer presses "Pay". It needs no script.</p>
<div class="panel"><label for="snippet">HTML of the pay button</label>
<textarea id="snippet" readonly rows="3" class="code">${paySnippet(l)}</textarea></div>
<h2>Invoices from this link</h2>
<div class="panel" role="region" aria-label="Invoices from this link" tabindex="0"><table>
<caption class="visually-hidden">Invoices from this link</caption>
<thead><tr><th scope="col">Invoice</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="4" class="muted">No invoices yet.</td></tr>`}</tbody>
</table></div>`,
  );
}
