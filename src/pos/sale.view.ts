import { formatAmount } from '../checkout/format.js';
import type { Translator } from '../checkout/i18n/i18n.js';
import type { Checkout } from '../checkout/service.js';
import { formatMoney } from '../money/money.js';
import { type Html, html } from '../web/html.js';
import { qrSvg } from '../web/qr.js';
import { langQuery, tillDocument } from './layout.js';

type Shown = 'waiting' | 'paid' | 'unpaid';

const shownOf = (status: string): Shown =>
  status === 'paid' ? 'paid' : status === 'pending' ? 'waiting' : 'unpaid';

/**
 * The sale once charged: the QR code full screen while it waits; pos.js asks the payment page's
 * public /status and turns the page to "Paid" (or "Not paid") by itself, without a reload.
 */
export function salePage(root: string, tillId: string, c: Checkout, tr: Translator): string {
  const self = `${root}${tillId}${langQuery(tr)}`;
  const state = shownOf(c.status.status);
  const due = `${formatAmount(tr.locale, formatMoney(c.due))} ${c.method.currency}`;
  const amount = `${formatAmount(tr.locale, c.status.amount)} ${c.row.currency}`;
  const statusUrl = `${root}../pay/${c.row.id}/status`;
  const main = html`<main class="till-card till-charge-view" data-sale data-state="${state}" data-status-url="${statusUrl}">
<section class="sale-waiting" data-view="waiting"${state === 'waiting' ? '' : html` hidden`}>
<h1 class="sale-amount"><span class="visually-hidden">${tr.t('pos.sale.scan')} </span>${amount}</h1>
${c.row.description ? html`<p class="sale-items">${c.row.description}</p>` : ''}
${c.payable ? html`<figure class="sale-qr">${qrSvg(c.paymentRequest, tr.t('pos.sale.qrLabel', { amount: due, network: c.networkLabel }))}<figcaption>${tr.t('pos.sale.qrCaption', { amount: due, network: c.networkLabel })}</figcaption></figure>` : ''}
<p class="sale-status" role="status">${tr.t('pos.sale.waiting')}</p>
<p><a class="till-button" href="${self}">${tr.t('pos.sale.cancel')}</a></p>
</section>
${result('paid', state, tr, amount, self)}
${result('unpaid', state, tr, amount, self)}
</main>`;
  return tillDocument({
    root,
    title: tr.t(state === 'paid' ? 'pos.sale.paid' : 'pos.sale.scan'),
    tr,
    main,
    languages: false,
  });
}

function result(view: 'paid' | 'unpaid', state: Shown, tr: Translator, amount: string, self: string): Html {
  return html`<section class="sale-result sale-${view}" data-view="${view}" tabindex="-1"${state === view ? '' : html` hidden`}>
<h1>${tr.t(view === 'paid' ? 'pos.sale.paid' : 'pos.sale.unpaid')}</h1>
<p class="sale-amount">${amount}</p>
<p><a class="till-button till-primary" href="${self}">${tr.t('pos.sale.new')}</a></p>
</section>`;
}
