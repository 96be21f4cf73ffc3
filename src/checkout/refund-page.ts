import type { FieldError } from '../http/errors.js';
import { formatMoney, money } from '../money/money.js';
import { checksumAddress } from '../networks/evm-address.js';
import type { NetworkRegistry } from '../networks/network.js';
import type { ClaimView } from '../refunds/claim.js';
import { type Html, html } from '../web/html.js';
import { brandMark } from './brand.js';
import { formatAmount, formatPrice } from './format.js';
import type { MessageKey } from './i18n/en.js';
import type { Translator } from './i18n/i18n.js';
import { icons } from './icons.js';
import { documentHtml, messagePage } from './layout.js';

/**
 * The refund claim page (contract §18): the payer's side of a refund, on the payment page's layout,
 * assets and languages. While the refund awaits an address: a form (method, "Refund address",
 * "Request refund"); after, the refund's status. `root` is the relative path to /pay/, where the
 * shared assets are served.
 */
export interface ClaimPage {
  refund: ClaimView;
  root: string;
  tr: Translator;
  networks: NetworkRegistry;
  /** The form's answers and what was wrong with them, when it comes back. */
  form?: { method?: string | undefined; address?: string | undefined; errors: FieldError[] };
}

export function claimPage(p: ClaimPage): string {
  const { refund, tr } = p;
  const amount = refundAmountText(refund, tr);
  const form = refund.status === 'awaiting_address';
  const heading = form ? tr.t('refund.heading') : tr.t(`refund.${statusKey(refund)}.heading`);
  const main = html`<main id="refund" class="card view-refund">
<header class="merchant">
${brandMark(refund, p.root)}
<p class="merchant-name">${refund.project_name}</p>
</header>
<div class="summary">
<p class="summary-label">${tr.t('refund.amount')}</p>
<div class="amount-line"><p class="amount"><span class="amount-value">${amount}</span></p></div>
</div>
${form ? claimForm(p, heading) : claimStatus(p, heading, amount)}
</main>`;
  return documentHtml({
    title: `${heading} · ${refund.project_name}`,
    root: p.root,
    main,
    tr,
    brandColor: refund.brand_color,
  });
}

/** "40.00 USDT", or "€20.00" for an invoice priced in another currency. */
function refundAmountText(r: ClaimView, tr: Translator): string {
  const decimal = formatMoney(money(r.amount));
  return r.rate
    ? formatPrice(tr.locale, decimal, r.currency)
    : `${formatAmount(tr.locale, decimal)} ${r.currency}`;
}

const statusKey = (r: ClaimView) => (r.status === 'sent' || r.status === 'confirmed' ? r.status : 'ready');

const ERROR_KEYS: Record<string, MessageKey> = {
  not_offered: 'refund.error.method',
  checksum_missing: 'refund.error.checksumMissing',
  checksum: 'refund.error.checksum',
  tron_address: 'refund.error.tron',
  solana_address: 'refund.error.solana',
  off_curve: 'refund.error.solanaOffCurve',
  evm_address: 'refund.error.evm',
};

/**
 * Phone first: one column, the choice as large radio rows, the address field full width with the
 * keyboard's autocorrection off. Errors are listed at the top (role="alert") and tied to their field.
 */
function claimForm(p: ClaimPage, heading: string): Html {
  const { refund, tr } = p;
  const errors = p.form?.errors ?? [];
  const messageOf = (field: string) => {
    const e = errors.find((x) => x.field === field);
    if (!e) return undefined;
    // An all-one-case address: the message shows its checksummed form to compare with the wallet.
    const typed = (p.form?.address ?? '').trim();
    const vars = e.rule === 'checksum_missing' ? { address: checksumAddress(typed) } : undefined;
    return tr.t(ERROR_KEYS[e.rule] ?? 'refund.error.evm', vars);
  };
  const methodError = messageOf('method');
  const addressError = messageOf('address');
  const chosen =
    p.form?.method ?? (refund.payment_methods.length === 1 ? keyOf(refund.payment_methods[0]) : undefined);
  const option = (m: { network: string; currency: string }) => {
    const key = keyOf(m);
    const id = `method-${m.network}-${m.currency}`;
    const label = tr.t('methods.option', { currency: m.currency, network: p.networks.label(m.network) });
    return html`<label class="method-option" for="${id}"><input type="radio" id="${id}" name="method" value="${key}" required${key === chosen ? html` checked` : ''}><span>${label}</span></label>`;
  };
  const described = ['address-hint', addressError ? 'address-error' : ''].filter(Boolean).join(' ');
  return html`<section class="claim" aria-labelledby="claim-heading">
<h1 id="claim-heading" class="claim-heading">${heading}</h1>
<p class="instruction">${tr.t('refund.intro')}</p>
${errors.length > 0 ? html`<div class="form-errors" role="alert"><p>${tr.t('refund.errors')}</p><ul>${[methodError, addressError].filter(Boolean).map((m) => html`<li>${m}</li>`)}</ul></div>` : ''}
<form method="post" action="?lang=${tr.lang}" class="claim-form" novalidate>
<fieldset class="methods-group" role="radiogroup" aria-labelledby="refund-legend"${methodError ? html` aria-describedby="method-error"` : ''}>
<legend id="refund-legend" class="field-label">${tr.t('refund.legend')}</legend>
${methodError ? html`<p id="method-error" class="field-error">${methodError}</p>` : ''}
<div class="method-options">${refund.payment_methods.map(option)}</div>
</fieldset>
<label class="field-label" for="address">${tr.t('refund.address')}</label>
<input class="text-input" id="address" name="address" type="text" value="${p.form?.address ?? ''}" autocomplete="off" autocapitalize="off" autocorrect="off" spellcheck="false" required aria-describedby="${described}"${addressError ? html` aria-invalid="true"` : ''}>
${addressError ? html`<p id="address-error" class="field-error">${addressError}</p>` : ''}
<p id="address-hint" class="field-hint">${tr.t('refund.addressHint')}</p>
<button type="submit" class="button button-primary button-brand">${tr.t('refund.submit')}</button>
</form>
</section>`;
}

const keyOf = (m: { network: string; currency: string } | undefined) =>
  m ? `${m.network}:${m.currency}` : undefined;

/** After the address was given: what happens next, where to, and the transfer once seen. */
function claimStatus(p: ClaimPage, heading: string, amount: string): Html {
  const { refund, tr } = p;
  const key = statusKey(refund);
  const text = tr.t(`refund.${key}.text`, { merchant: refund.project_name, amount });
  const method = tr.t('methods.option', {
    currency: refund.token ?? '',
    network: p.networks.label(refund.network ?? ''),
  });
  const tone = key === 'confirmed' ? 'success' : 'pending';
  return html`<section class="result result-${tone}">
<span class="result-icon">${key === 'confirmed' ? icons.check : icons.clock}</span>
<h1>${heading}</h1>
<p>${text}</p>
</section>
<dl class="details">
<div><dt>${tr.t('refund.legend')}</dt><dd>${method}</dd></div>
<div class="wide"><dt>${tr.t('refund.address')}</dt><dd><code>${refund.address ?? ''}</code></dd></div>
${refund.tx_hash ? html`<div class="wide"><dt>${tr.t('row.transaction')}</dt><dd><code>${refund.tx_hash}</code></dd></div>` : ''}
</dl>`;
}

/** A link that opens no refund waiting for an address: used, canceled, or never issued. */
export function claimNotFoundPage(root: string, tr: Translator): string {
  return messagePage(root, tr, tr.t('refund.used.heading'), tr.t('refund.used.text'));
}
