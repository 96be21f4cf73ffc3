import type { invoiceDetail } from '../../invoices/browse.js';
import type { Invoice } from '../../invoices/invoice.js';
import { formatMoney, money } from '../../money/money.js';
import { methodLabel, type PaymentMethod } from '../../networks/methods.js';
import type { NetworkRegistry } from '../../networks/network.js';
import type { RefundRow } from '../../refunds/refund.table.js';
import { type Html, html } from '../../web/html.js';
import { failureReason } from '../../webhooks/reason.js';
import type { deliveriesOf } from '../../webhooks/service.js';
import type { DashboardContext } from '../context.js';
import { badge, csrf, ROOT, shell, time } from '../layout.js';
import { definition } from './invoices.js';
import { invoiceRefundsSection } from './refunds.js';

type Detail = Awaited<ReturnType<typeof invoiceDetail>> & {
  deliveries: Awaited<ReturnType<typeof deliveriesOf>>;
  /** The invoice as the API shows it (invoices/invoice.ts toInvoice): amounts due, payment statuses. */
  shown: Invoice;
  refunds: RefundRow[];
  /** What is left to refund, in the invoice currency. */
  left: string;
};

export function invoicePage(
  ctx: DashboardContext,
  d: Detail,
  networks: NetworkRegistry,
  payUrl: string,
  notice?: string,
): string {
  const i = d.invoice;
  const owner = ctx.session.role === 'owner';
  // With several methods, the network and address are the first payment's: none before it.
  const open = i.network === null && i.payment_methods.length > 1 ? 'Chosen by the first payment' : null;
  return shell(
    ctx,
    'Invoices',
    `Invoice ${i.id}`,
    html`<p><a href="${ROOT}/invoices">← Invoices</a></p>
<h1>Invoice <code>${i.id}</code></h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
<section class="panel" aria-labelledby="fields" tabindex="0"><h2 id="fields">Details</h2><dl class="details">
${definition('Status', badge(i.status))}
${definition('Amount', `${d.shown.amount} ${i.currency}`)}
${definition('Amount paid', `${d.shown.amount_paid} ${i.currency}`)}
${definition('Amount refunded', `${d.shown.amount_refunded} ${i.currency}`)}
${d.shown.rate ? definition('Rate', rateText(d.shown.rate)) : ''}
${definition('Order', i.order_id)}
${i.description === null ? '' : definition('Description', i.description)}
${definition('Network', i.network ? networks.label(i.network) : open)}
${definition('Pay address', i.pay_address ? html`<code>${i.pay_address}</code>` : open)}
${definition('Transaction', i.tx_hash && i.network ? txLink(networks, i.network, i.tx_hash) : null)}
${definition('Paid late', i.paid_late ? 'yes' : 'no')}
${definition('Failure reason', i.failure_reason)}
${definition('Created', time(i.created_at))}
${definition('Expires', time(i.payment_expires_at))}
${definition('Paid', i.paid_at ? time(i.paid_at) : null)}
${definition('Updated', time(i.updated_at))}
${definition('Payment page', html`<a href="${payUrl}">${payUrl}</a>`)}
${definition('Return URL', i.redirect_url)}
${definition('Cancel URL', i.cancel_url)}
${definition('Metadata', Object.keys(i.metadata).length ? html`<code>${JSON.stringify(i.metadata)}</code>` : null)}
</dl></section>
${methodsSection(d, networks)}
${paymentsSection(d, networks)}
${invoiceRefundsSection(ctx, i, d.refunds, d.left, networks)}
<section class="panel" aria-labelledby="events" tabindex="0"><h2 id="events">Events and webhook deliveries</h2>
${d.events.length ? html`<ol class="events">${d.events.map((e) => eventItem(ctx, d, e, owner))}</ol>` : html`<p class="muted">No events.</p>`}
</section>`,
  );
}

/** Every way this invoice can be paid, as offered when it was made, with what is still due in each. */
function methodsSection(d: Detail, networks: NetworkRegistry): Html {
  return html`<section class="panel" aria-labelledby="methods" tabindex="0"><h2 id="methods">Payment methods</h2>
<table><thead><tr><th scope="col">Method</th><th scope="col">Address</th><th scope="col" class="num">Amount due</th></tr></thead><tbody>${d.shown.payment_methods.map(
    (m) =>
      html`<tr><td>${methodLabel(networks, m as PaymentMethod)}</td><td><code>${m.pay_address}</code></td><td class="num">${m.amount_due} ${m.currency}</td></tr>`,
  )}</tbody></table></section>`;
}

/**
 * Every payment seen, on whichever network and token, with its explorer link. Those the invoice only
 * records are listed too, each kind with a line that says why it was not credited.
 */
function paymentsSection(d: Detail, networks: NetworkRegistry): Html {
  if (d.payments.length === 0) {
    return html`<section class="panel" aria-labelledby="payments" tabindex="0"><h2 id="payments">Payments</h2><p class="muted">No payment yet.</p></section>`;
  }
  const has = (status: string) => d.shown.payments.some((p) => p.status === status);
  return html`<section class="panel" aria-labelledby="payments" tabindex="0"><h2 id="payments">Payments</h2>
<table><thead><tr><th scope="col">Network</th><th scope="col">Token</th><th scope="col">Transaction</th><th scope="col" class="num">Amount</th><th scope="col">Status</th><th scope="col">Seen</th><th scope="col">Confirmed</th></tr></thead><tbody>${d.payments.map(
    (p, n) =>
      // toInvoice lists the payments in the same order, with the API's status names (detected, …).
      html`<tr><td>${networks.label(p.network)}</td><td>${p.currency}</td><td>${txLink(networks, p.network, p.tx_hash)}</td><td class="num">${formatMoney(money(p.amount))}</td><td>${badge(d.shown.payments[n]?.status ?? p.status)}</td><td>${time(p.seen_at)}</td><td>${time(p.confirmed_at)}</td></tr>`,
  )}</tbody></table>
${has('unaccepted') ? html`<p class="hint">An unaccepted payment is a token or network this invoice does not take: it is recorded but never counted towards the amount paid.</p>` : ''}
${has('dust') ? html`<p class="hint">A dust payment is too small to count on its own (below ${formatMoney(money(d.invoice.dust_percent))} % of the amount): it is recorded, never changes the status or what the payer is asked for, and joins the payment that completes the invoice.</p>` : ''}
${has('after_close') ? html`<p class="hint">An after_close payment reached the address once the invoice was closed: it is never counted towards the amount paid, and once confirmed it can be refunded with the rest.</p>` : ''}
</section>`;
}

function eventItem(ctx: DashboardContext, d: Detail, e: Detail['events'][number], canResend: boolean): Html {
  const deliveries = d.deliveries.filter((x) => x.event_id === e.id);
  return html`<li><p><strong>${e.type}</strong> · ${time(e.created_at)} · <code>${e.id}</code></p>
${
  deliveries.length
    ? html`<table><thead><tr><th scope="col">Endpoint</th><th scope="col">Delivery</th><th scope="col" class="num">Attempts</th><th scope="col">Last response</th><th scope="col">Next attempt</th></tr></thead><tbody>${deliveries.map(
        (x) =>
          html`<tr><td><code>${x.url}</code></td><td>${badge(x.status)}</td><td class="num">${x.attempts}</td><td>${lastResponse(x)}</td><td>${x.status === 'pending' ? time(x.next_attempt_at) : time(null)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">Not sent to any endpoint.</p>`
}
${
  canResend && deliveries.length
    ? html`<form method="post" action="${ROOT}/invoices/${d.invoice.id}/events/${e.id}/resend">${csrf(ctx)}<button type="submit" class="button button-small">Resend</button></form>`
    : ''
}</li>`;
}

/** The status of a delivered attempt, or why the last one failed; a dash before the first. */
function lastResponse(x: Detail['deliveries'][number]): string {
  if (x.status === 'succeeded') return String(x.response_status ?? '—');
  if (x.response_status === null && !x.error) return '—';
  return failureReason(x.response_status, x.error);
}

function txLink(networks: NetworkRegistry, network: string, txHash: string): Html {
  const url = networks.transactionUrl(network, txHash);
  return url
    ? html`<a href="${url}" rel="noopener noreferrer" target="_blank"><code>${txHash}</code><span class="visually-hidden"> (opens the block explorer)</span></a>`
    : html`<code>${txHash}</code>`;
}

/** "1 USDT = 0.9234 EUR (kraken, 2026-11-24T10:04:05.000Z)": the rate the invoice locked (contract §19). */
function rateText(rate: NonNullable<Invoice['rate']>): string {
  const [base, quote] = rate.pair.split('/');
  return `1 ${base} = ${rate.value} ${quote} (${rate.source}, ${rate.fetched_at})`;
}
