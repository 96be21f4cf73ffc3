import type { Branding } from '../../branding/branding.js';
import { MAX_LOGO_BYTES, MAX_LOGO_SIDE } from '../../branding/logo.js';
import { MAX_TTL_SECONDS, MIN_TTL_SECONDS } from '../../merchants/merchant.js';
import type { FamilyName } from '../../networks/family.js';
import { isTestNetwork, mixesEnvironments } from '../../networks/livemode.js';
import type { AddressPreview } from '../../networks/preview.js';
import { type Html, html } from '../../web/html.js';
import type { DashboardContext } from '../context.js';
import { csrf, errorSummary, type PageMessage, ROOT, shell } from '../layout.js';
import { type PaymentForm, paymentFields, type SettingsCatalog } from './payment-settings.js';

/** The Settings form as it is sent: text as typed. */
export interface SettingsForm extends PaymentForm {
  name: string;
  ttl_minutes: string;
}

export function settingsPage(
  ctx: DashboardContext,
  catalog: SettingsCatalog,
  form: SettingsForm,
  opts: {
    errors?: readonly PageMessage[];
    previews?: Partial<Record<FamilyName, AddressPreview>>;
    notice?: string | undefined;
    branding?: Branding | undefined;
    brandingErrors?: readonly PageMessage[];
  } = {},
): string {
  return shell(
    ctx,
    'Settings',
    'Settings',
    html`<h1>Settings</h1>
${opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : ''}
${mixedNotice(catalog, ctx.project.payment_methods)}
${errorSummary(opts.errors ?? [])}
<div class="panel"><form method="post" action="${ROOT}/settings" novalidate data-settings>${csrf(ctx)}
<div class="field"><label for="name">Project name</label><input id="name" name="name" type="text" maxlength="100" required value="${form.name}" aria-describedby="name-hint"><p class="hint" id="name-hint">Payers see it on the payment page.</p></div>
<div class="field"><label for="ttl">Invoice lifetime (minutes)</label><input id="ttl" name="ttl_minutes" type="number" inputmode="numeric" min="${MIN_TTL_SECONDS / 60}" max="${MAX_TTL_SECONDS / 60}" required value="${form.ttl_minutes}" aria-describedby="ttl-hint"><p class="hint" id="ttl-hint">How long a payer has to pay: 1 minute to 7 days.</p></div>
${paymentFields(catalog, form, opts.previews ?? {})}
<div class="actions"><button type="submit" name="intent" value="preview" class="button">Preview addresses</button><button type="submit" name="intent" value="save" class="button button-primary">Save</button></div>
</form></div>
${opts.branding ? brandingPanel(ctx, opts.branding, opts.brandingErrors ?? []) : ''}`,
  );
}

/**
 * A project saved before live and test were kept apart (contract §21) may still mix them: say what
 * its new invoices offer meanwhile, and how to end it.
 */
function mixedNotice(catalog: SettingsCatalog, methods: readonly { network: string }[]): Html | '' {
  if (!mixesEnvironments(catalog.networks, methods)) return '';
  const names = (test: boolean) =>
    [...new Set(methods.map((m) => m.network))]
      .filter((n) => isTestNetwork(catalog.networks, n) === test)
      .map((n) => catalog.networks.label(n))
      .join(', ');
  return html`<p class="notice" role="note" data-notice="mixed_environments">This project accepts live methods (${names(false)}) and test methods (${names(true)}), as was allowed before they were kept apart. New invoices offer only the live methods, and test payments never pay them. Keep either the live or the test methods and save: a project for testing is best made separately.</p>`;
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
