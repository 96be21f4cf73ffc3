import type { Branding } from '../../branding/branding.js';
import { MAX_LOGO_BYTES, MAX_LOGO_SIDE } from '../../branding/logo.js';
import { MAX_TTL_SECONDS, MIN_TTL_SECONDS } from '../../merchants/merchant.js';
import { CURRENCIES, type NetworkRegistry, SANDBOX } from '../../networks/network.js';
import type { AddressPreview } from '../../networks/preview.js';
import { type Html, html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { csrf, errorSummary, type PageMessage, ROOT, shell } from '../layout.js';

export interface SettingsForm {
  name: string;
  ttl_minutes: string;
  network: string;
  currency: string;
  xpub: string;
}

export function settingsPage(
  ctx: DashboardContext,
  networks: NetworkRegistry,
  form: SettingsForm,
  opts: {
    errors?: readonly PageMessage[];
    preview?: AddressPreview | undefined;
    notice?: string | undefined;
    branding?: Branding | undefined;
    brandingErrors?: readonly PageMessage[];
  } = {},
): string {
  const select = (value: string, options: Array<[string, string]>) =>
    options.map(
      ([v, label]) => html`<option value="${v}"${v === value ? html` selected` : ''}>${label}</option>`,
    );
  const networkOptions: Array<[string, string]> = [
    [SANDBOX, 'Sandbox (simulated payments)'],
    ...networks
      .all()
      .map((n): [string, string] => [
        n.name,
        `${n.label}${n.testnet ? ' (testnet)' : ''}${n.rpcUrl ? '' : ' (not watched: no RPC URL)'}`,
      ]),
  ];
  return shell(
    ctx,
    'Settings',
    'Settings',
    html`<h1>Settings</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${errorSummary(opts.errors ?? [])}
<div class="panel"><form method="post" action="${ROOT}/settings" novalidate data-settings>${csrf(ctx)}
<div class="field"><label for="name">Project name</label><input id="name" name="name" type="text" maxlength="100" required value="${form.name}" aria-describedby="name-hint"><p class="hint" id="name-hint">Payers see it on the payment page.</p></div>
<div class="field"><label for="ttl">Invoice lifetime (minutes)</label><input id="ttl" name="ttl_minutes" type="number" inputmode="numeric" min="${MIN_TTL_SECONDS / 60}" max="${MAX_TTL_SECONDS / 60}" required value="${form.ttl_minutes}" aria-describedby="ttl-hint"><p class="hint" id="ttl-hint">How long a payer has to pay: 1 minute to 7 days.</p></div>
<div class="field"><label for="network">Network</label><select id="network" name="network">${select(form.network, networkOptions)}</select></div>
<div class="field"><label for="currency">Currency</label><select id="currency" name="currency">${select(
      form.currency,
      CURRENCIES.map((c) => [c, c]),
    )}</select></div>
<div class="field"><label for="xpub">xpub</label><textarea id="xpub" name="xpub" rows="3" maxlength="200" spellcheck="false" autocomplete="off" aria-describedby="xpub-hint">${form.xpub}</textarea>
<p class="hint" id="xpub-hint">The account-level extended public key of your wallet (m/44'/60'/0' on EVM networks, m/44'/195'/0' on TRON). Leave empty on the sandbox. Paydesk never needs a private key.</p></div>
<div id="xpub-preview" aria-live="polite">${opts.preview ? previewList(opts.preview) : ''}</div>
<div class="actions"><button type="submit" name="intent" value="preview" class="button">Preview addresses</button><button type="submit" name="intent" value="save" class="button button-primary">Save</button></div>
</form></div>
${opts.branding ? brandingPanel(ctx, opts.branding, opts.brandingErrors ?? []) : ''}`,
  );
}

/**
 * The payment page's branding (issue 13): the same service functions as the admin API's
 * /projects/{id}/branding and /logo, so the same contrast and image rules.
 */
function brandingPanel(ctx: DashboardContext, b: Branding, errors: readonly PageMessage[]): Html {
  return html`<section class="panel" aria-labelledby="branding-title"><h2 id="branding-title">Payment page branding</h2>
${errorSummary(errors)}
<form method="post" action="${ROOT}/settings/branding" novalidate>${csrf(ctx)}
<div class="field"><label for="brand_color">Brand colour</label><input id="brand_color" name="brand_color" type="text" maxlength="7" autocomplete="off" spellcheck="false" placeholder="#635bff" value="${b.brand_color ?? ''}" aria-describedby="brand-hint">
<p class="hint" id="brand-hint">A hex colour (#rrggbb) for the payment page's main buttons. It must contrast at least 3:1 with the page; the text on it is chosen for you. Leave empty for Paydesk's own.</p></div>
<div class="actions"><button type="submit" class="button">Save colour</button></div>
</form>
<form method="post" action="${ROOT}/settings/logo" enctype="multipart/form-data">${csrf(ctx)}
${b.logo_url ? html`<p><img class="brand-logo" src="${new URL(b.logo_url).pathname}" alt="Current logo" width="48" height="48"></p>` : html`<p class="muted">No logo: the payment page shows the project's initial.</p>`}
<div class="field"><label for="logo">Logo (PNG)</label><input id="logo" name="logo" type="file" accept="image/png" aria-describedby="logo-hint">
<p class="hint" id="logo-hint">A PNG of at most ${String(MAX_LOGO_BYTES / 1024)} KiB and ${String(MAX_LOGO_SIDE)}×${String(MAX_LOGO_SIDE)} pixels. Paydesk re-encodes it and serves it itself.</p></div>
<div class="actions"><button type="submit" class="button">Upload logo</button></div>
</form>
${b.logo_url ? html`<form method="post" action="${ROOT}/settings/logo/remove">${csrf(ctx)}<button type="submit" class="button button-danger">Remove logo</button></form>` : ''}
</section>`;
}

export function previewList(preview: AddressPreview): Html {
  return html`<div class="panel"><h2>First deposit addresses</h2><p class="hint">Check that your wallet lists these same receiving addresses before you save.</p>
<ol start="0">${preview.addresses.map((a) => html`<li><code>${a.address}</code></li>`)}</ol></div>`;
}
