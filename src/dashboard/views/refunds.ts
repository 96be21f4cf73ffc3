import { formatMoney, type Money, money } from '../../money/money.js';
import type { NetworkRegistry } from '../../networks/network.js';
import { paymentRequest, walletLink } from '../../networks/payment-request.js';
import { type RefundBase, refundableStatus } from '../../refunds/amounts.js';
import type { ReadyNetwork } from '../../refunds/browse.js';
import { cancelable } from '../../refunds/lifecycle.js';
import type { RefundRow } from '../../refunds/refund.table.js';
import { SAFE_BATCH_MAX } from '../../refunds/safe-batch.js';
import { type Html, html } from '../../web/html.js';
import { qrSvg } from '../../web/qr.js';
import type { DashboardContext } from '../context.js';
import { badge, csrf, ROOT, shell, time } from '../layout.js';
import { secretField, secretGone } from './secret.js';

export type WaitingRefund = RefundRow & { rate: unknown };

const tokens = (r: RefundRow) => (r.token_amount ? formatMoney(money(r.token_amount)) : null);
const method = (networks: NetworkRegistry, r: RefundRow) =>
  r.network ? `${r.token} on ${networks.label(r.network)}` : null;

/** A "Cancel" button for a refund awaiting its address or ready (owners only), back to `back` after. */
function cancelForm(ctx: DashboardContext, r: RefundRow, back: string): Html {
  return html`<form method="post" action="${ROOT}/refunds/${r.id}/cancel">${csrf(ctx)}<input type="hidden" name="back" value="${back}"><button type="submit" class="button button-small" aria-label="Cancel refund ${r.id}">Cancel</button></form>`;
}

/** "New claim link" for a refund whose payer has not given an address (owners only): the old link stops working. */
function relinkForm(ctx: DashboardContext, r: RefundRow): Html {
  return html`<form method="post" action="${ROOT}/refunds/${r.id}/claim-link">${csrf(ctx)}<button type="submit" class="button button-small" aria-label="New claim link for refund ${r.id}">New claim link</button></form>`;
}

/** The actions an owner has on a refund in its status. */
function actions(ctx: DashboardContext, r: RefundRow, back: string): Html | string {
  if (ctx.session.role !== 'owner') return '';
  return html`${r.status === 'awaiting_address' ? relinkForm(ctx, r) : ''}${cancelable(r.status) ? cancelForm(ctx, r, back) : ''}`;
}

/** The invoice page's refunds: each with its status, method and address, and the form to make one. */
export function invoiceRefundsSection(
  ctx: DashboardContext,
  invoice: RefundBase & { id: string; status: string; currency: string },
  refunds: readonly RefundRow[],
  left: string,
  networks: NetworkRegistry,
): Html {
  const owner = ctx.session.role === 'owner';
  const back = `${ROOT}/invoices/${invoice.id}`;
  const rows = refunds.map(
    (r) =>
      html`<tr><td><code>${r.id}</code></td><td class="num">${formatMoney(money(r.amount))} ${r.currency}</td><td>${badge(r.status)}</td><td>${method(networks, r) ?? html`<span class="muted">Waiting for the payer</span>`}</td><td>${r.address ? html`<code>${r.address}</code>` : html`<span class="muted">—</span>`}</td><td>${r.tx_hash ? html`<code>${r.tx_hash}</code>` : html`<span class="muted">—</span>`}</td><td>${time(r.created_at)}</td><td>${actions(ctx, r, back)}</td></tr>`,
  );
  const refundable = refundableStatus(invoice);
  return html`<section class="panel" aria-labelledby="refunds" tabindex="0"><h2 id="refunds">Refunds</h2>
${
  refunds.length
    ? html`<table><thead><tr><th scope="col">Refund</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Method</th><th scope="col">Address</th><th scope="col">Transaction</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="muted">No refunds.</p>`
}
${owner && refundable ? refundForm(ctx, invoice, left) : ''}
</section>`;
}

/** "Refund": an amount (empty: all that is left) and a reason; the service decides the rest. */
function refundForm(ctx: DashboardContext, invoice: { id: string; currency: string }, left: string): Html {
  return html`<form method="post" action="${ROOT}/invoices/${invoice.id}/refunds" class="form">${csrf(ctx)}
<div class="field"><label for="refund-amount">Refund amount (${invoice.currency})</label><input id="refund-amount" name="amount" type="text" inputmode="decimal" maxlength="40" placeholder="${left}" aria-describedby="refund-amount-hint"><p class="hint" id="refund-amount-hint">Up to ${left} ${invoice.currency} is left to refund; empty refunds all of it. To refund only an over-payment, enter the over-paid part.</p></div>
<div class="field"><label for="refund-reason">Reason</label><input id="refund-reason" name="reason" type="text" maxlength="500"></div>
<button type="submit" class="button">Refund</button>
</form>`;
}

/** After "Refund": the claim link, once, to send to the payer. */
export function createdRefundPage(ctx: DashboardContext, r: RefundRow, claimUrl: string | undefined): string {
  return shell(
    ctx,
    'Refunds',
    'Refund created',
    html`<h1>Refund created</h1>
<p>${formatMoney(money(r.amount))} ${r.currency} of invoice <a href="${ROOT}/invoices/${r.invoice_id}"><code>${r.invoice_id}</code></a>.</p>
${
  claimUrl === undefined
    ? secretGone('Claim link', 'If it was lost, make a new one ("New claim link" on the invoice page).')
    : secretField(
        'claim-link',
        'Claim link',
        claimUrl,
        'Send this link to the payer: they choose how to receive the refund and give their address. It works once.',
      )
}
<p><a class="button" href="${ROOT}/invoices/${r.invoice_id}">Done</a></p>`,
  );
}

/**
 * Refunds waiting for the merchant's wallet: what to send, in which token, on which network, to which
 * address, as a QR code and an "Open in wallet" link (EIP-681 on EVM networks, `tron:` on TRON), so a
 * phone wallet pays it in a few taps.
 */
export function waitingRefundsPage(
  ctx: DashboardContext,
  refunds: readonly RefundRow[],
  ready: readonly ReadyNetwork[],
  networks: NetworkRegistry,
  notice?: string,
): string {
  const items = refunds.map((r) => waitingItem(ctx, r, networks));
  return shell(
    ctx,
    'Refunds',
    'Refunds',
    html`<h1>Refunds</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<p>Refunds whose payer gave an address, waiting for your wallet. Paydesk marks each confirmed when its transfer arrives. <a href="${ROOT}/refunds/export.csv">Export CSV</a> of the ready ones, for a batch payout.</p>
${safeBatches(ready, networks)}
${refunds.length ? html`<ul class="refund-list">${items}</ul>` : html`<p class="muted">No refund is waiting.</p>`}`,
  );
}

/**
 * One Safe Transaction Builder file per EVM network with ready refunds: loaded into a Safe ("Load
 * batch"), it pays them all in one transaction. TRON has no Safe: the CSV serves it.
 */
function safeBatches(ready: readonly ReadyNetwork[], networks: NetworkRegistry): Html | string {
  const safe = ready.filter((r) => r.safe);
  if (safe.length === 0) return '';
  const items = safe.map(
    (r) =>
      html`<li><a href="${ROOT}/refunds/export.safe.json?network=${encodeURIComponent(r.network)}" download>Safe batch for ${networks.label(r.network)}</a> <span class="muted">(${String(Math.min(r.count, SAFE_BATCH_MAX))} of ${String(r.count)} ready)</span></li>`,
  );
  return html`<section aria-labelledby="safe-batches"><h2 id="safe-batches">Pay in one transaction from a Safe</h2>
<p>A file for Safe's Transaction Builder: load it in your Safe and sign once to send these refunds together (up to ${String(SAFE_BATCH_MAX)} per file, oldest first).</p>
<ul>${items}</ul></section>`;
}

function waitingItem(ctx: DashboardContext, r: RefundRow, networks: NetworkRegistry): Html {
  const amount = money(r.token_amount ?? '0') as Money;
  const target = { network: r.network ?? '', currency: r.token ?? '', pay_address: r.address ?? '', amount };
  const link = walletLink(target, networks);
  const sent = `${tokens(r)} ${r.token}`;
  return html`<li class="panel refund-item"><h2><code>${r.id}</code> ${badge(r.status)}</h2>
<dl class="details">
<div><dt>Amount</dt><dd>${sent} <span class="muted">(${formatMoney(money(r.amount))} ${r.currency})</span></dd></div>
<div><dt>Token</dt><dd>${r.token}</dd></div>
<div><dt>Network</dt><dd>${networks.label(r.network ?? '')}</dd></div>
<div><dt>Address</dt><dd><code>${r.address}</code></dd></div>
<div><dt>Invoice</dt><dd><a href="${ROOT}/invoices/${r.invoice_id}"><code>${r.invoice_id}</code></a></dd></div>
<div><dt>Ready since</dt><dd>${time(r.ready_at)}</dd></div>
</dl>
<div class="qr">${qrSvg(paymentRequest(target, networks), `QR code to send ${sent} to ${r.address}`)}</div>
${link ? html`<p><a class="button" href="${link}">Open in wallet</a></p>` : ''}
${actions(ctx, r, `${ROOT}/refunds`)}
</li>`;
}
