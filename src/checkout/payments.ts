import type { Payment } from '../invoices/lifecycle.js';
import { formatMoney } from '../money/money.js';
import { type Html, html } from '../web/html.js';
import { formatAmount } from './format.js';
import type { Translator } from './i18n/i18n.js';
import type { Checkout } from './service.js';

/** "USDT on TRON": a payment method in the page's language (methodLabel's words in English). */
export function methodText(c: Checkout, tr: Translator, m: { network: string; currency: string }): string {
  return tr.t('methods.option', { currency: m.currency, network: c.label(m.network) });
}

/** "10.00 USDT on TRON": a payment by its amount, token and network. */
export function paymentText(c: Checkout, tr: Translator, p: Payment): string {
  const amount = `${formatAmount(tr.locale, formatMoney(p.amount))} ${p.currency}`;
  return tr.t('payment.on', { amount, network: c.label(p.network) });
}

/** Several payments, one to a line (a details row's value). */
export function paymentLines(c: Checkout, tr: Translator, payments: readonly Payment[]): Html {
  return html`${payments.map((p, i) => html`${i > 0 ? html`<br>` : ''}${paymentText(c, tr, p)}`)}`;
}
