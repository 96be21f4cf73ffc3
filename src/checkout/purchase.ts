import { type Html, html } from '../web/html.js';
import type { Translator } from './i18n/i18n.js';
import type { CheckoutRow } from './repository.js';

/**
 * What the payer is paying for, in the merchant's words, under the merchant's name: the order id and
 * the description, each when the invoice was given one. Both are the merchant's text: escaped.
 */
export function purchase(row: Pick<CheckoutRow, 'order_id' | 'description'>, tr: Translator): Html | '' {
  if (row.order_id === null && row.description === null) return '';
  return html`<div class="purchase">
${row.order_id === null ? '' : html`<p class="order-id">${tr.h('merchant.order', { order: row.order_id })}</p>`}
${row.description === null ? '' : html`<p class="description">${row.description}</p>`}
</div>`;
}
