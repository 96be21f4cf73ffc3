import { itemsText } from '../../pos/items.js';
import type { TillItem } from '../../pos/till.table.js';
import { type Html, html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { badge, csrf, errorSummary, type PageMessage, ROOT, shell, time } from '../layout.js';

interface TillView {
  id: string;
  name: string;
  items: TillItem[];
  currency: string;
  active: boolean;
  created_at: Date;
}

interface TillForm {
  name: string;
  items: string;
  errors: readonly PageMessage[];
}

function row(t: TillView, base: string, ctx: DashboardContext): Html {
  const link = `${base}/pos/${t.id}`;
  return html`<tr>
<td>${t.name}</td>
<td>${t.active ? html`<a href="${link}">${link}</a>` : html`<span class="muted">—</span>`}</td>
<td>${t.items.length ? itemsText(t.items).split('\n').join(' · ') : html`<span class="muted">Keypad only</span>`}</td>
<td>${t.currency}</td>
<td>${time(t.created_at)}</td>
<td>${badge(t.active ? 'active' : 'disabled')}</td>
<td>${t.active ? html`<form method="post" action="${ROOT}/pos/${t.id}/disable" class="inline">${csrf(ctx)}<button type="submit" class="button button-small button-danger" aria-label="Disable ${t.name}">Disable</button></form>` : ''}</td>
</tr>`;
}

function newTillForm(ctx: DashboardContext, form?: TillForm): Html {
  return html`<h2 id="new-till">Create a till</h2>
${errorSummary(form?.errors ?? [])}
<div class="panel"><form method="post" action="${ROOT}/pos" aria-labelledby="new-till">${csrf(ctx)}
<div class="field"><label for="till-name">Name</label><input id="till-name" name="name" type="text" maxlength="100" required value="${form?.name ?? ''}" placeholder="Counter 1"></div>
<div class="field"><label for="till-pin">PIN</label><input id="till-pin" name="pin" type="password" inputmode="numeric" autocomplete="new-password" pattern="[0-9]{6,12}" maxlength="12" required aria-describedby="till-pin-hint">
<p class="hint" id="till-pin-hint">6 to 12 digits, asked on the till before each shift. Five wrong PINs lock the till for 15 minutes.</p></div>
<div class="field"><label for="till-items">Items</label><textarea id="till-items" name="items" rows="6" aria-describedby="till-items-hint">${form?.items ?? ''}</textarea>
<p class="hint" id="till-items-hint">Optional. One a line: name; price before tax; tax % (optional), such as <code>Espresso; 2.50; 7.7</code>. Prices are in ${ctx.project.currency}.</p></div>
<div class="actions"><button type="submit" class="button button-primary">Create till</button></div>
</form></div>`;
}

/** The project's tills, each with its link, and the form for a new one. */
export function tillsPage(
  ctx: DashboardContext,
  tills: TillView[],
  base: string,
  opts: { notice?: string | undefined; form?: TillForm } = {},
): string {
  return shell(
    ctx,
    'Point of sale',
    'Point of sale',
    html`<h1>Point of sale</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
<p class="muted">A till is a page for a phone or tablet at the counter: type an amount or tap items, press Charge, and the payer scans the QR code. It opens with its PIN; no dashboard sign-in is needed there.</p>
<div class="panel" role="region" aria-label="Tills" tabindex="0"><table>
<caption class="visually-hidden">Tills</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Link</th><th scope="col">Items</th><th scope="col">Currency</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${tills.length ? tills.map((t) => row(t, base, ctx)) : html`<tr><td colspan="7" class="muted">No tills yet.</td></tr>`}</tbody>
</table></div>
${newTillForm(ctx, opts.form)}`,
  );
}
