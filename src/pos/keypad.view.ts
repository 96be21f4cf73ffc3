import { formatAmount } from '../checkout/format.js';
import type { Translator } from '../checkout/i18n/i18n.js';
import { currencyDecimals } from '../money/currencies.js';
import { type Html, html } from '../web/html.js';
import { langQuery, tillDocument } from './layout.js';
import { formatMinor, type Sale } from './sale.js';
import type { TillItem, TillRow } from './till.table.js';

/** An amount as the till shows it: the locale's digits and the currency code ("12.50 USD"). */
export const shown = (tr: Translator, minor: bigint, currency: string) =>
  `${formatAmount(tr.locale, formatMinor(minor, currency))} ${currency}`;

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0'] as const;

/** Digits fill the amount from the right (cash-register style: 1, 2, 5, 0 is 12.50); pos.js reads the data. */
function keypad(tr: Translator): Html {
  return html`<div class="keypad" role="group" aria-label="${tr.t('pos.keypad')}" data-keypad hidden>
${KEYS.map((k) => html`<button type="button" class="key" data-key="${k}">${k}</button>`)}
<button type="button" class="key" data-key="back" aria-label="${tr.t('pos.key.back')}">⌫</button>
<button type="button" class="key key-wide" data-key="clear">${tr.t('pos.key.clear')}</button>
</div>`;
}

function itemRow(item: TillItem, i: number, till: TillRow, tr: Translator): Html {
  const price = `${formatAmount(tr.locale, item.price)} ${till.currency}`;
  const tax = item.tax_percent
    ? tr.t('pos.item.tax', { percent: formatAmount(tr.locale, item.tax_percent) })
    : '';
  return html`<li class="item">
<button type="button" class="item-add" data-add="${i}" hidden><span class="item-name">${item.name}</span><span class="item-price">${price}${tax ? html` <span class="item-tax">${tax}</span>` : ''}</span></button>
<span class="item-label" data-noscript>${item.name} · ${price}${tax ? ` ${tax}` : ''}</span>
<label class="visually-hidden" for="qty-${i}">${tr.t('pos.item.quantity', { name: item.name })}</label>
<input class="item-qty" id="qty-${i}" name="qty" type="number" inputmode="numeric" min="0" max="999" step="1" value="0">
</li>`;
}

export function totals(
  tr: Translator,
  sale: Pick<Sale, 'subtotal' | 'tax' | 'total'>,
  currency: string,
): Html {
  return html`<dl class="totals">
<div><dt>${tr.t('pos.subtotal')}</dt><dd data-total="subtotal">${shown(tr, sale.subtotal, currency)}</dd></div>
<div><dt>${tr.t('pos.tax')}</dt><dd data-total="tax">${shown(tr, sale.tax, currency)}</dd></div>
<div class="total"><dt>${tr.t('pos.total')}</dt><dd data-total="total">${shown(tr, sale.total, currency)}</dd></div>
</dl>`;
}

/** The till once unlocked: amount (keypad), items, totals, "Charge". Without a script it is a plain form. */
export function keypadPage(root: string, till: TillRow, tr: Translator, error?: string): string {
  const self = `${root}${till.id}`;
  const decimals = currencyDecimals(till.currency);
  const main = html`<main class="till-card till-sale">
<header class="till-head"><h1>${till.name}</h1>
<form method="post" action="${self}/lock${langQuery(tr)}"><button type="submit" class="till-button till-small">${tr.t('pos.lock.button')}</button></form></header>
${error ? html`<p class="till-alert" role="alert">${error}</p>` : ''}
<form method="post" action="${self}/charge${langQuery(tr)}" class="till-form" data-till data-quote-url="${self}/quote" data-decimals="${String(decimals)}">
<div class="amount-field"><label for="amount">${tr.t('pos.amount')} (${till.currency})</label>
<input id="amount" name="amount" type="text" inputmode="decimal" autocomplete="off" maxlength="16" placeholder="${formatMinor(0n, till.currency)}"></div>
${keypad(tr)}
${till.items.length > 0 ? html`<h2 class="items-heading">${tr.t('pos.items')}</h2><ul class="items">${till.items.map((item, i) => itemRow(item, i, till, tr))}</ul>` : ''}
<div aria-live="polite" data-totals>${totals(tr, { subtotal: 0n, tax: 0n, total: 0n }, till.currency)}</div>
<button type="submit" class="till-button till-primary till-charge">${tr.t('pos.charge')}</button>
</form>
</main>`;
  return tillDocument({ root, title: till.name, tr, main });
}
