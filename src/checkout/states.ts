import { confirmedTotal } from '../invoices/lifecycle.js';
import { formatMoney } from '../money/money.js';
import { formatDateTime, formatRemaining } from './format.js';
import { type Html, html } from './html.js';
import { icons } from './icons.js';
import type { Checkout } from './service.js';

/** A row of the details list; `wide` puts the value under its label (long ids on a phone). */
type Row = [label: string, value: Html | string, wide?: boolean];

/** The status block of each view: what happened and what the payer should do next. */
export function statusBlock(c: Checkout): Html {
  const { row } = c;
  const merchant = row.project_name;
  const reference: Row = ['Reference', html`<code>${row.id}</code>`, true];
  switch (c.state) {
    case 'waiting':
      return waiting(c);
    case 'detected':
      return result('pending', icons.pending, 'Payment detected', {
        text: html`We have seen your payment and are waiting for the network to confirm it. Keep this page open: it updates by itself.`,
        extra: html`<p class="timer"><span class="pulse" aria-hidden="true"></span>Waiting for confirmation</p>`,
        rows: [['Network', c.networkLabel], reference],
      });
    case 'paid':
      return result('success', icons.check, 'Payment received', {
        text: html`Thank you! ${merchant} has been notified. You can close this page.`,
        rows: [
          ['Paid on', dateTime(c.invoice.paidAt ?? row.updated_at)],
          ['Network', c.networkLabel],
          reference,
        ],
      });
    case 'expired':
      return result('neutral', icons.expired, 'Invoice expired', {
        text: html`Do not send a payment to its address. If you still want to pay, ask ${merchant} for a new payment link.`,
        rows: [['Expired', dateTime(row.payment_expires_at)], reference],
      });
    case 'failed':
      return result(
        'danger',
        icons.cross,
        c.invoice.failureReason === 'payment_reversed' ? 'Payment reversed' : 'Payment incomplete',
        {
          text:
            c.invoice.failureReason === 'payment_reversed'
              ? html`The payment was reversed on the network before it was confirmed. Contact ${merchant} before you pay again.`
              : html`Less than the full amount arrived before the deadline. Contact ${merchant} to settle the difference.`,
          rows: [['Received', `${c.status.amount_paid} ${row.currency}`], reference],
        },
      );
  }
}

function waiting(c: Checkout): Html {
  const { row } = c;
  const remaining = row.payment_expires_at.getTime() - c.now.getTime();
  const partial = confirmedTotal(c.invoice) > 0n;
  return html`<section class="status status-waiting" aria-labelledby="status-heading">
<div class="status-line">
<h2 id="status-heading" class="status-title" tabindex="-1"><span class="pulse" aria-hidden="true"></span>Waiting for payment</h2>
<p class="timer${remaining < 5 * 60_000 ? ' is-urgent' : ''}">Expires in <time class="countdown" datetime="${row.payment_expires_at.toISOString()}" data-countdown>${formatRemaining(remaining)}</time></p>
</div>
<p class="instruction">${partial ? html`We received ${c.status.amount_paid} ${row.currency} so far. ` : ''}Send <strong>${formatMoney(c.due)} ${row.currency}</strong> on the ${c.networkLabel} network to the address below.</p>
${row.network === 'sandbox' ? '' : html`<p class="instruction">Only ${row.currency} on ${c.networkLabel} counts: another token, or the same token on another network, does not pay this invoice.</p>`}
${c.requestCarriesAmount ? '' : html`<p class="instruction">The QR code holds the address only: enter the amount in your wallet yourself, exactly <strong>${formatMoney(c.due)} ${row.currency}</strong>.</p>`}
</section>`;
}

function result(
  tone: string,
  icon: Html,
  heading: string,
  opts: { text: Html; extra?: Html; rows: Row[] },
): Html {
  return html`<section class="status result result-${tone}" aria-labelledby="status-heading">
<div class="result-icon">${icon}</div>
<h2 id="status-heading" class="status-title" tabindex="-1">${heading}</h2>
<p>${opts.text}</p>
${opts.extra}
<dl class="details">${opts.rows.map(([label, value, wide]) => html`<div${wide ? html` class="wide"` : ''}><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>
</section>`;
}

function dateTime(at: Date): Html {
  return html`<time datetime="${at.toISOString()}">${formatDateTime(at)}</time>`;
}
