import { confirmedTotal } from '../invoices/lifecycle.js';
import { formatMoney, type Money, remainder } from '../money/money.js';
import { type Html, html } from '../web/html.js';
import { formatAmount, formatDateTime, formatRemaining } from './format.js';
import type { Translator } from './i18n/i18n.js';
import { icons } from './icons.js';
import { paymentLines } from './payments.js';
import type { Checkout } from './service.js';

/** A row of the details list; `wide` puts the value under its label (long ids on a phone). */
type Row = [label: string, value: Html | string, wide?: boolean];

/** How long the paid view waits before taking the payer back to the shop (they can stop it). */
export const REDIRECT_SECONDS = 5;
/**
 * The paid view only sends the payer back by itself shortly after the payment: a payer who opens the
 * page again a day later (from the shop's e-mail, say) is not bounced off it.
 */
export const AUTO_REDIRECT_WINDOW_MS = 10 * 60_000;

/** The status block of each view: what happened and what the payer should do next. */
export function statusBlock(c: Checkout, tr: Translator): Html {
  const { row } = c;
  const merchant = row.project_name;
  const amount = (m: Money, unit = c.unit) => `${formatAmount(tr.locale, formatMoney(m))} ${unit}`;
  const reference: Row = [tr.t('row.reference'), html`<code>${row.id}</code>`, true];
  const transaction: Row[] = c.transaction ? [[tr.t('row.transaction'), txLink(c, tr), true]] : [];
  // The payments this view names (methods.ts paymentsShown). A plain invoice (one method, in its own
  // currency) names their network, as it always did; any other names each by amount, token and network.
  const networks = [...new Set(c.shown.map((p) => p.network))].map(c.label).join(', ');
  const network: Row = [tr.t('row.network'), networks || c.networkLabel];
  const named = (key: 'row.paidWith' | 'row.reversed'): Row[] =>
    c.plain || c.shown.length === 0 ? [] : [[tr.t(key), paymentLines(c, tr, c.shown), true]];
  switch (c.state) {
    case 'waiting':
      return waiting(c, tr);
    case 'detected':
      return result('pending', icons.pending, tr.t('detected.heading'), {
        text: html`${tr.t('detected.text')}`,
        extra: html`<p class="timer"><span class="pulse" aria-hidden="true"></span>${tr.t('detected.wait')}</p>`,
        rows: [
          ...(c.seen ? [[tr.t('row.amountSeen'), amount(c.seen.amount, c.seen.currency)] as Row] : []),
          ...transaction,
          network,
          reference,
        ],
      });
    case 'paid':
      return result('success', icons.check, tr.t('paid.heading'), {
        text: html`${[
          tr.t('paid.text', { merchant }),
          c.invoice.paidLate ? tr.t('paid.late') : '',
          row.redirect_url ? '' : tr.t('paid.close'),
        ]
          .filter(Boolean)
          .join(' ')}`,
        extra: row.redirect_url ? returnToShop(c, tr, row.redirect_url) : undefined,
        rows: [
          [tr.t('row.paidOn'), dateTime(tr, c.invoice.paidAt ?? row.updated_at)],
          ...transaction,
          ...(c.plain ? [network] : named('row.paidWith')),
          reference,
        ],
      });
    case 'expired': {
      const open = c.now.getTime() < c.lateUntil.getTime();
      return result('neutral', icons.expired, tr.t('expired.heading'), {
        text: html`${tr.t('expired.text', { merchant })}`,
        extra: html`<p class="result-note">${
          open
            ? tr.h('expired.late', { until: dateTime(tr, c.lateUntil) })
            : tr.t('expired.closed', { merchant })
        }</p>`,
        rows: [[tr.t('row.expired'), dateTime(tr, row.payment_expires_at)], reference],
      });
    }
    case 'failed': {
      const reversed = c.invoice.failureReason === 'payment_reversed';
      const received = confirmedTotal(c.invoice);
      const kind = reversed ? 'reversed' : 'underpaid';
      return result('danger', icons.cross, tr.t(`failed.${kind}.heading`), {
        text: html`${tr.t(`failed.${kind}.text`, { merchant })}`,
        rows: [
          [tr.t('row.received'), amount(received)],
          ...(reversed ? [] : [[tr.t('row.missing'), amount(remainder(c.invoice.amount, received))] as Row]),
          ...transaction,
          ...named(reversed ? 'row.reversed' : 'row.paidWith'),
          reference,
        ],
      });
    }
  }
}

function waiting(c: Checkout, tr: Translator): Html {
  const { row } = c;
  const remaining = row.payment_expires_at.getTime() - c.now.getTime();
  const days = (n: number) => tr.t('script.days', { days: String(n) });
  return html`<section class="status status-waiting" aria-labelledby="status-heading">
<div class="status-line">
<h2 id="status-heading" class="status-title" tabindex="-1"><span class="pulse" aria-hidden="true"></span>${tr.t('waiting.heading')}</h2>
<p class="timer${remaining < 5 * 60_000 ? ' is-urgent' : ''}">${tr.t('waiting.expiresIn')} <time class="countdown" datetime="${row.payment_expires_at.toISOString()}" data-countdown>${formatRemaining(remaining, days)}</time></p>
</div>
<p class="instruction">${tr.h('waiting.send', {
    amount: html`<strong>${formatAmount(tr.locale, formatMoney(c.due))} ${c.method.currency}</strong>`,
    network: c.networkLabel,
  })}</p>
</section>`;
}

/** The paid view's way back: a link, and (with the script) a countdown the payer can stop. */
function returnToShop(c: Checkout, tr: Translator, url: string): Html {
  const merchant = c.row.project_name;
  const paidAt = c.invoice.paidAt ?? c.row.updated_at;
  const auto = c.now.getTime() - paidAt.getTime() < AUTO_REDIRECT_WINDOW_MS;
  return html`<div class="return">
<a class="button button-primary button-brand" href="${url}" rel="noreferrer" data-return>${tr.t('paid.return', { merchant })}</a>
${
  auto
    ? html`<div class="redirect" data-redirect data-seconds="${String(REDIRECT_SECONDS)}" hidden>
<p class="redirect-text" data-redirect-text>${tr.t('paid.redirecting', { merchant, seconds: String(REDIRECT_SECONDS) })}</p>
<button type="button" class="button button-secondary" data-redirect-stop>${tr.t('paid.stay')}</button>
</div>`
    : ''
}
</div>`;
}

function txLink(c: Checkout, tr: Translator): Html {
  const tx = c.transaction;
  if (!tx) return html``;
  const code = html`<code class="hash">${tx.hash}</code>`;
  if (!tx.url) return code;
  return html`${code} <a class="explorer" href="${tx.url}" rel="noreferrer" target="_blank">${tr.t('explorer.link')}</a>`;
}

function result(
  tone: string,
  icon: Html,
  heading: string,
  opts: { text: Html; extra?: Html | undefined; rows: Row[] },
): Html {
  return html`<section class="status result result-${tone}" aria-labelledby="status-heading">
<div class="result-icon">${icon}</div>
<h2 id="status-heading" class="status-title" tabindex="-1">${heading}</h2>
<p>${opts.text}</p>
${opts.extra}
<dl class="details">${opts.rows.map(([label, value, wide]) => html`<div${wide ? html` class="wide"` : ''}><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>
</section>`;
}

function dateTime(tr: Translator, at: Date): Html {
  return html`<time datetime="${at.toISOString()}">${formatDateTime(tr.locale, at)}</time>`;
}
