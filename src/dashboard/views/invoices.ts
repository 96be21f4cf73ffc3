import type { InvoiceListRow } from '../../invoices/browse.js';
import { INVOICE_STATUSES } from '../../invoices/status.js';
import { formatAmount, money } from '../../money/money.js';
import { type Html, html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { badge, ROOT, shell, time } from '../layout.js';

export interface ListView {
  rows: InvoiceListRow[];
  status: string;
  q: string;
  next?: string | undefined;
  prev?: string | undefined;
}

function query(params: Record<string, string | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function invoicesPage(ctx: DashboardContext, v: ListView): string {
  const filters = { status: v.status, q: v.q };
  const rows = v.rows.map(
    (r) => html`<tr>
<td data-label="Invoice"><a href="${ROOT}/invoices/${r.id}"><code>${r.id}</code></a></td>
<td data-label="Order">${r.order_id ?? html`<span class="muted">—</span>`}</td>
<td data-label="Amount" class="num">${formatAmount(money(r.amount), r.currency)} ${r.currency}</td>
<td data-label="Status">${badge(r.status)}</td>
<td data-label="Created">${time(r.created_at)}</td>
</tr>`,
  );
  const option = (s: string, label: string) =>
    html`<option value="${s}"${v.status === s ? html` selected` : ''}>${label}</option>`;
  return shell(
    ctx,
    'Invoices',
    'Invoices',
    html`<div class="page-head"><h1>Invoices</h1><a class="button" href="${ROOT}/invoices/export.csv${query(filters)}" download>Export CSV</a></div>
<form class="filters panel" method="get" action="${ROOT}/invoices" role="search">
<div class="field"><label for="status">Status</label><select id="status" name="status" data-autosubmit>${option('', 'All')}${INVOICE_STATUSES.map((s) => option(s, s))}</select></div>
<div class="field grow"><label for="q">Search</label><input id="q" name="q" type="search" value="${v.q}" maxlength="200" placeholder="inv_… or an order id" aria-describedby="q-hint"><p class="hint" id="q-hint">An invoice id or an order id, exactly.</p></div>
<button type="submit" class="button">Filter</button>
</form>
<div class="panel" role="region" aria-label="Invoices, newest first" tabindex="0"><table class="stack">
<caption class="visually-hidden">Invoices, newest first</caption>
<thead><tr><th scope="col">Invoice</th><th scope="col">Order</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="5" class="muted">No invoices match.</td></tr>`}</tbody>
</table></div>
<nav class="pager" aria-label="Pages">
${v.prev ? html`<a class="button" rel="prev" href="${ROOT}/invoices${query({ ...filters, before: v.prev })}">Previous page</a>` : ''}
${v.next ? html`<a class="button" rel="next" href="${ROOT}/invoices${query({ ...filters, after: v.next })}">Next page</a>` : ''}
</nav>`,
  );
}

export function definition(term: string, value: Html | string | null | undefined): Html {
  return html`<dt>${term}</dt><dd>${value === null || value === undefined || value === '' ? html`<span class="muted">—</span>` : value}</dd>`;
}
