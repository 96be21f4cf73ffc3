import type { GaslessOffer } from '../gasless/offer.js';
import { confirmedTotal } from '../invoices/lifecycle.js';
import { formatMoney, money } from '../money/money.js';
import { SANDBOX } from '../networks/network.js';
import { type Html, html } from '../web/html.js';
import { qrSvg } from '../web/qr.js';
import { brandMark } from './brand.js';
import { methodChooser } from './chooser.js';
import { formatAmount, formatPrice } from './format.js';
import type { Translator } from './i18n/i18n.js';
import { icons } from './icons.js';
import { documentHtml, pageQuery } from './layout.js';
import { paymentText } from './payments.js';
import { purchase } from './purchase.js';
import { type Checkout, canSimulate } from './service.js';
import { statusBlock } from './states.js';

/** The whole payment page: the one renderer of every view, used for the first load and every live update. */
export function checkoutPage(c: Checkout, root: string, tr: Translator, wallet?: GaslessOffer): string {
  const { row } = c;
  const headline = headlineAmount(c);
  const title = `${tr.t(`title.${c.state}`)} ${formatAmount(tr.locale, headline.value)} ${headline.currency} · ${row.project_name}`;
  return documentHtml({
    title,
    root,
    main: checkoutMain(c, root, tr, wallet),
    tr,
    scriptMessages: scriptMessages(c, tr),
    brandColor: row.brand_color,
    method: c.chosen,
  });
}

/**
 * The big number. While something is to be paid: what to send now, in the chosen method's token (an
 * invoice in USD is paid at par, so it is the same number with the token's symbol). In the other
 * views: the invoice's amount in its own currency; the details below name the tokens actually sent.
 */
function headlineAmount(c: Checkout): { value: string; currency: string } {
  return c.payable
    ? { value: formatMoney(c.due), currency: c.method.currency }
    : { value: c.status.amount, currency: c.row.currency };
}

function checkoutMain(c: Checkout, root: string, tr: Translator, wallet?: GaslessOffer): Html {
  const { row, state } = c;
  const self = `${root}${row.id}`;
  // The language travels with every request the page makes, so a live update speaks it too.
  // So does the chosen method: a live update, or the Simulate button, keeps the payer's choice.
  const query = pageQuery({ method: c.chosen, lang: tr.lang });
  const terminal = state === 'paid' || state === 'failed';
  const choose = state === 'waiting' && c.methods.length > 1;
  return html`<main id="checkout" class="card view-${state}" data-state="${state}" data-etag="${c.etag}" data-page-url="${self}${query}" data-status-url="${self}/status" data-server-now="${c.now.toISOString()}" data-terminal="${String(terminal)}">
${merchantHeader(c, root, tr)}
${purchase(c.row, tr)}
${summary(c, tr)}
${choose ? methodChooser(c, self, tr) : ''}
${statusBlock(c, tr)}
${c.unaccepted.length > 0 ? unacceptedNote(c, tr) : ''}
${c.payable && wallet ? walletSection(c, wallet, self, tr) : ''}
${c.payable ? payDetails(c, tr) : ''}
${canSimulate(c) ? simulateForm(`${self}/simulate${query}`, tr) : ''}
${terminal ? '' : html`<noscript><p class="note">${tr.t('noscript')}</p></noscript>`}
</main>`;
}

function merchantHeader(c: Checkout, root: string, tr: Translator): Html {
  const { row } = c;
  return html`<header class="merchant">
${brandMark(row, root)}
<p class="merchant-name">${row.project_name}</p>
${c.badge ? html`<p class="badge network-${c.badge.test ? 'test' : 'live'}"><span class="visually-hidden">${tr.t('merchant.network')} </span>${c.badge.label}</p>` : ''}
</header>`;
}

/**
 * The headline is what to send now: after a part-payment, the remaining amount (a payer who reads
 * only the big number must not send the full amount again), with the total and what arrived below.
 */
function summary(c: Checkout, tr: Translator): Html {
  const { row, payable } = c;
  const received = confirmedTotal(c.invoice);
  const partial = payable && received > 0n;
  // A part-payment still confirming leaves less to pay than the invoice's amount, too.
  const remaining = partial || (payable && c.due < c.invoice.amount);
  const label = remaining
    ? tr.t('summary.remaining')
    : tr.t(c.state === 'paid' ? 'summary.paid' : payable ? 'summary.due' : 'summary.amount');
  const { value, currency } = headlineAmount(c);
  const money = (decimal: string) => `${formatAmount(tr.locale, decimal)} ${row.currency}`;
  // What arrived, by token and network once the invoice offers more than its own currency.
  const receivedText = c.plain
    ? money(formatMoney(received))
    : c.invoice.payments
        .filter((p) => p.status === 'confirmed')
        .map((p) => paymentText(c, tr, p))
        .join(', ');
  // An invoice priced in another currency than the token says its price beside the label, on a line
  // the page has anyway ("Amount due · 25.00 USD" over "25.00 USDT"): the chooser needs the room.
  // Priced at a rate, the price and its token amount have a line of their own in every view.
  const price = payable && currency !== row.currency && !row.rate ? ` · ${money(value)}` : '';
  return html`<div class="summary">
<p class="summary-label">${label}${price}</p>
<div class="amount-line">
<h1 class="amount"><span class="amount-value" id="pay-amount">${formatAmount(tr.locale, value)}</span> <span class="amount-currency">${currency}</span></h1>
${payable ? copyButton('pay-amount', tr.t('copy.amount'), tr, value) : ''}
</div>
${row.rate ? html`<p class="summary-rate" id="price-rate">${rateText(c, tr)}</p>` : ''}
${partial ? html`<p class="summary-partial">${tr.t('summary.partial', { total: money(c.status.amount), received: receivedText })}</p>` : ''}
</div>`;
}

/**
 * "€20.00 = 21.63 USDT" (contract §19): the price in its currency and the token amount it was locked
 * at, in the chosen method's token (both tokens take the same amount).
 */
function rateText(c: Checkout, tr: Translator): string {
  const { row } = c;
  const tokens = formatAmount(tr.locale, formatMoney(money(row.token_amount)));
  return `${formatPrice(tr.locale, c.status.amount, row.currency)} = ${tokens} ${c.method.currency}`;
}

/**
 * Phone first: on a phone the payer pays from this very device, so "Open in wallet", the address and
 * its copy button come first (above the fold at 375×667); the QR code, for paying from another
 * device, comes after them.
 */
function payDetails(c: Checkout, tr: Translator): Html {
  const { row } = c;
  const dueText = `${formatAmount(tr.locale, formatMoney(c.due))} ${c.method.currency}`;
  const due = html`<strong>${dueText}</strong>`;
  return html`<section class="pay" aria-labelledby="pay-heading">
<h2 id="pay-heading" class="visually-hidden">${tr.t('pay.heading')}</h2>
${c.walletUri ? html`<a class="button button-primary button-brand button-wallet" href="${c.walletUri}">${icons.wallet}<span>${tr.t('pay.openWallet')}</span></a>` : ''}
<div class="field-head">
<p class="field-label">${tr.t('pay.address')}</p>
${copyButton('pay-address', tr.t('copy.address'), tr)}
</div>
<code class="address" id="pay-address">${addressGroups(c.method.pay_address)}</code>
<p class="copy-status" role="status" data-copy-status></p>
${c.requestCarriesAmount ? '' : html`<p class="instruction">${tr.h('waiting.typeAmount', { amount: due })}</p>`}
<figure class="qr-frame">
${qrSvg(c.paymentRequest, tr.t('pay.qrLabel', { amount: dueText, address: c.method.pay_address }))}
<figcaption>${tr.t(c.requestCarriesAmount ? 'pay.qrCaption' : 'pay.qrCaptionAddress')}</figcaption>
</figure>
${onlyCounts(c, tr)}
${row.cancel_url ? html`<p class="cancel"><a href="${row.cancel_url}" rel="noreferrer">${tr.t('pay.cancel')}</a></p>` : ''}
</section>`;
}

/**
 * What does not pay the invoice. One method: only its token on its network (contract §14). Several:
 * only those listed under "Pay with". Not said on the sandbox, where nothing real can be sent.
 */
function onlyCounts(c: Checkout, tr: Translator): Html {
  if (c.methods.every((m) => m.network === SANDBOX)) return html``;
  const text =
    c.methods.length > 1
      ? tr.t('waiting.onlyMethods', { legend: tr.t('methods.legend') })
      : tr.t('waiting.onlyToken', { currency: c.method.currency, network: c.networkLabel });
  return html`<p class="instruction">${text}</p>`;
}

/** Payments the invoice cannot credit (contract §15's `unaccepted`): the payer is told, in every view. */
function unacceptedNote(c: Checkout, tr: Translator): Html {
  const payments = c.unaccepted.map((p) => paymentText(c, tr, p)).join(', ');
  return html`<p class="unaccepted">${tr.t('unaccepted.text', { payments, merchant: c.row.project_name })}</p>`;
}

function copyButton(target: string, label: string, tr: Translator, value?: string): Html {
  return html`<button type="button" class="button button-copy" data-copy="${target}"${value === undefined ? '' : html` data-copy-value="${value}"`} aria-label="${label}" hidden>${icons.copy}<span>${tr.t('copy.button')}</span></button>`;
}

/**
 * The address in groups of four ("0x" on its own), so it can be compared by eye. Each group is a
 * span and a line may only break between groups (<wbr>), never inside one; the text content, which
 * the copy button and a selection take, is still the address exactly, without spaces.
 */
export function addressGroups(address: string): Html {
  const prefix = address.startsWith('0x') ? ['0x'] : [];
  const rest = address.slice(prefix.join('').length);
  const groups = [...prefix, ...(rest.match(/.{1,4}/g) ?? [])];
  return html`${groups.map((g, i) => html`${i > 0 ? html`<wbr>` : ''}<span>${g}</span>`)}`;
}

/**
 * "Pay from your browser wallet" (contract §23): what the wallet signs is in data attributes, read
 * by pay.js, which asks an EIP-1193 wallet for the EIP-712 signature and posts it to
 * …/authorizations. The rules stay on the server: the script only carries what it was given.
 */
function walletSection(c: Checkout, o: GaslessOffer, self: string, tr: Translator): Html {
  const amount = `${formatMoney(c.due)} ${o.currency}`;
  return html`<section class="wallet" aria-labelledby="wallet-heading" data-wallet data-post-url="${self}/authorizations" data-network="${o.network}" data-network-label="${o.label}" data-chain-id="${String(o.chainId)}" data-token="${o.token}" data-domain-name="${o.domain.name}" data-domain-version="${o.domain.version}" data-to="${o.payTo}" data-value="${o.units.toString()}" data-nonce="${o.nonce}" data-valid-before="${o.validBefore.toString()}">
<h2 id="wallet-heading">${tr.t('wallet.heading')}</h2>
<p>${tr.t('wallet.text', { amount, network: o.label })}</p>
<button type="button" class="button button-primary" data-wallet-pay>${tr.t('wallet.button')}</button>
<p class="note" role="status" data-wallet-message></p>
</section>`;
}

function simulateForm(action: string, tr: Translator): Html {
  return html`<section class="sandbox" aria-labelledby="sandbox-heading">
<div class="sandbox-text">${icons.flask}<div><h2 id="sandbox-heading">${tr.t('sandbox.heading')}</h2><p>${tr.t('sandbox.text')}</p></div></div>
<form method="post" action="${action}" data-simulate>
<button type="submit" class="button button-primary">${tr.t('sandbox.button')}</button>
</form>
</section>`;
}

/** What pay.js says by itself (copy, countdown, the redirect), in the page's language. */
function scriptMessages(c: Checkout, tr: Translator): Record<string, string> {
  return {
    copied: tr.t('script.copied'),
    copyFallback: tr.t('script.copyFallback'),
    processing: tr.t('script.processing'),
    days: tr.t('script.days'),
    redirecting: tr.t('paid.redirecting', { merchant: c.row.project_name, seconds: '{{seconds}}' }),
    stayed: tr.t('paid.stayed'),
    walletNone: tr.t('script.wallet.none'),
    walletRejected: tr.t('script.wallet.rejected'),
    walletWrongChain: tr.t('script.wallet.wrongChain', { network: '{{network}}' }),
    walletExpired: tr.t('script.wallet.expired'),
    walletBalance: tr.t('script.wallet.balance', { network: '{{network}}' }),
    walletSent: tr.t('script.wallet.sent'),
    walletFailed: tr.t('script.wallet.failed', { reason: '{{reason}}' }),
  };
}
