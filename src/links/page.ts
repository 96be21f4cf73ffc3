import { formatAmount, formatPrice } from '../checkout/format.js';
import type { Translator } from '../checkout/i18n/i18n.js';
import { documentHtml } from '../checkout/layout.js';
import { amountText } from '../money/money.js';
import { type Html, html } from '../web/html.js';
import { linkText } from './messages.js';
import type { PublicLink, Refusal } from './pay.js';

/** Where the payment page's assets are, from /l/{id}: every URL on the page is relative. */
export const LINK_ROOT = '../pay/';

export interface LinkPage {
  link: PublicLink;
  tr: Translator;
  /** The form token (token.ts), made for this rendering. */
  token: string;
  /** Why the link is closed, or what was wrong with the payer's answers. */
  refusal?: Refusal | undefined;
  /** The payer's answers, kept when the form comes back. */
  answers?: { amount?: string | undefined; email?: string | undefined };
}

/** "€20.00" for an ISO currency, "20.00 USDT" for a token, in the page's locale. */
function priceText(locale: string, decimal: string, currency: string): string {
  const shown = amountText(decimal, currency);
  return /^[A-Z]{3}$/.test(currency)
    ? formatPrice(locale, shown, currency)
    : `${formatAmount(locale, shown)} ${currency}`;
}

const CLOSED: readonly Refusal[] = ['inactive', 'expired', 'usedUp', 'unpayable'];

/**
 * The link page: title, description, the price or an amount field, the e-mail field when asked for,
 * and "Pay", which posts the form (with its token) back to this URL. A closed link shows why instead
 * of the form. Phone first, no script needed.
 */
export function linkPage(p: LinkPage): string {
  const { link, tr } = p;
  const t = (key: Parameters<typeof linkText>[1], vars?: Record<string, string>) =>
    linkText(tr.lang, key, vars);
  const closed = p.refusal !== undefined && CLOSED.includes(p.refusal);
  const alert = p.refusal ? html`<p class="form-errors" role="alert">${t(`refused.${p.refusal}`)}</p>` : '';
  const main = html`<main id="link" class="card view-link">
<header class="merchant"><p class="merchant-name">${link.project_name}</p></header>
<h1 class="claim-heading">${link.title}</h1>
${link.description ? html`<p class="instruction">${link.description}</p>` : ''}
${alert}
${closed ? '' : payForm(p, t)}
</main>`;
  return documentHtml({ title: `${link.title} · ${link.project_name}`, root: LINK_ROOT, main, tr });
}

function payForm(
  p: LinkPage,
  t: (key: Parameters<typeof linkText>[1], vars?: Record<string, string>) => string,
): Html {
  const { link, tr } = p;
  const price = (d: string) => priceText(tr.locale, d, link.currency);
  const amountError = p.refusal === 'amount';
  const emailError = p.refusal === 'email';
  const hint =
    link.min_amount && link.max_amount
      ? t('between', { min: price(link.min_amount), max: price(link.max_amount) })
      : link.min_amount
        ? t('atLeast', { min: price(link.min_amount) })
        : link.max_amount
          ? t('atMost', { max: price(link.max_amount) })
          : '';
  const amount =
    link.amount !== null
      ? html`<div class="summary"><p class="summary-label">${t('price')}</p><div class="amount-line"><p class="amount"><span class="amount-value">${price(link.amount)}</span></p></div></div>`
      : html`<label class="field-label" for="amount">${t('amount', { currency: link.currency })}</label>
<input class="text-input" id="amount" name="amount" type="text" inputmode="decimal" autocomplete="off" required value="${p.answers?.amount ?? ''}"${hint ? html` aria-describedby="amount-hint"` : ''}${amountError ? html` aria-invalid="true"` : ''}>
${hint ? html`<p id="amount-hint" class="field-hint">${hint}</p>` : ''}`;
  const email = link.collect_email
    ? html`<label class="field-label" for="email">${t('email')}</label>
<input class="text-input" id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${p.answers?.email ?? ''}"${emailError ? html` aria-invalid="true"` : ''}>`
    : '';
  return html`<form method="post" action="?lang=${tr.lang}" class="claim-form" novalidate>
<input type="hidden" name="token" value="${p.token}">
${amount}
${email}
<button type="submit" class="button button-primary button-brand">${t('pay')}</button>
<p class="field-hint">${t('next')}</p>
</form>`;
}
