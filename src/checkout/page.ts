import { formatMoney } from '../money/money.js';
import { type Html, html } from './html.js';
import { icons } from './icons.js';
import { documentHtml } from './layout.js';
import { qrSvg } from './qr.js';
import { type Checkout, canSimulate } from './service.js';
import { statusBlock } from './states.js';

const TITLES = {
  waiting: 'Pay',
  detected: 'Payment detected',
  paid: 'Payment received',
  expired: 'Invoice expired',
  failed: 'Payment failed',
} as const;

/** The whole payment page: the one renderer of every view, used for the first load and every live update. */
export function checkoutPage(c: Checkout, root: string): string {
  const { row } = c;
  const title = `${TITLES[c.state]} ${c.status.amount} ${row.currency} · ${row.project_name}`;
  return documentHtml({ title, root, main: checkoutMain(c, root) });
}

function checkoutMain(c: Checkout, root: string): Html {
  const { row, state } = c;
  const self = `${root}${row.id}`;
  const terminal = state === 'paid' || state === 'failed';
  return html`<main id="checkout" class="card view-${state}" data-state="${state}" data-etag="${c.etag}" data-page-url="${self}" data-status-url="${self}/status" data-server-now="${c.now.toISOString()}" data-terminal="${String(terminal)}">
${merchantHeader(c)}
${summary(c)}
${statusBlock(c)}
${state === 'waiting' ? payDetails(c) : ''}
${canSimulate(c) ? simulateForm(self) : ''}
${terminal ? '' : html`<noscript><p class="note">JavaScript is off, so this page does not update by itself: reload it to see the latest status.</p></noscript>`}
</main>`;
}

function merchantHeader(c: Checkout): Html {
  const name = c.row.project_name;
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return html`<header class="merchant">
<span class="avatar" aria-hidden="true">${initial}</span>
<p class="merchant-name">${name}</p>
<p class="badge network-${c.row.network === 'sandbox' ? 'test' : 'live'}"><span class="visually-hidden">Network: </span>${c.networkLabel}</p>
</header>`;
}

function summary(c: Checkout): Html {
  const label = c.state === 'paid' ? 'Amount paid' : c.state === 'waiting' ? 'Amount due' : 'Amount';
  return html`<div class="summary">
<p class="summary-label">${label}</p>
<h1 class="amount"><span class="amount-value">${c.status.amount}</span> <span class="amount-currency">${c.row.currency}</span></h1>
</div>`;
}

function payDetails(c: Checkout): Html {
  const { row } = c;
  const request = c.paymentRequest;
  return html`<section class="pay" aria-labelledby="pay-heading">
<h2 id="pay-heading" class="visually-hidden">Payment details</h2>
<figure class="qr-frame">
${qrSvg(request, `QR code to pay ${formatMoney(c.due)} ${row.currency} to ${row.pay_address}`)}
<figcaption>${c.requestCarriesAmount ? 'Scan with your wallet app' : 'Scan for the address'}</figcaption>
</figure>
<div class="field-head">
<p class="field-label">Payment address</p>
<button type="button" class="button button-copy" data-copy="pay-address" hidden>${icons.copy}<span>Copy<span class="visually-hidden"> address</span></span></button>
</div>
<code class="address" id="pay-address">${row.pay_address}</code>
<p class="copy-status" role="status" data-copy-status></p>
</section>`;
}

function simulateForm(self: string): Html {
  return html`<section class="sandbox" aria-labelledby="sandbox-heading">
<div class="sandbox-text">${icons.flask}<div><h2 id="sandbox-heading">Sandbox invoice</h2><p>No real funds move. Pay it as a test payer would:</p></div></div>
<form method="post" action="${self}/simulate" data-simulate>
<button type="submit" class="button button-primary">Simulate payment</button>
</form>
</section>`;
}
