import type { Catalog } from '../../merchants/service.js';
import type { FamilyName, XpubFamily } from '../../networks/family.js';
import { isTestNetwork } from '../../networks/livemode.js';
import { methodKey, methodLabel, networkMethods, type PaymentMethod } from '../../networks/methods.js';
import { INVOICE_CURRENCIES, type NetworkRegistry, SANDBOX } from '../../networks/network.js';
import type { AddressPreview } from '../../networks/preview.js';
import type { Watching } from '../../watch/watched.js';
import { type Html, html } from '../../web/html.js';

/** The payment fields of the Settings form as sent: text as typed, ticked methods as `network:currency`. */
export interface PaymentForm {
  currency: string;
  payment_methods: string[];
  underpayment_tolerance_percent: string;
  evm_xpub: string;
  tron_xpub: string;
  payout_address: string;
  solana_address: string;
}

/** A checkbox of the Settings form: one `{network, currency}` pair the registry knows. */
interface MethodOption {
  key: string;
  label: string;
  network: string;
}

/** A family's xpub field: its label, its key path, and the network its preview derives on. */
export interface KeyField {
  family: XpubFamily;
  label: string;
  path: string;
  previewNetwork: string;
}

const KEY_FIELDS: ReadonlyArray<Omit<KeyField, 'previewNetwork'>> = [
  { family: 'evm', label: 'EVM xpub', path: "m/44'/60'/0'" },
  { family: 'tron', label: 'TRON xpub', path: "m/44'/195'/0'" },
];

/**
 * One xpub field per chain family the registry has a network of. Its addresses are the same on
 * every network of the family, so the preview derives them on the family's first network.
 */
export function keyFields(networks: NetworkRegistry): KeyField[] {
  return KEY_FIELDS.flatMap((k) => {
    const first = networks.all().find((n) => n.family === k.family);
    return first ? [{ ...k, previewNetwork: first.name }] : [];
  });
}

/**
 * Every token of every network the registry knows, and the sandbox's, in the registry's order; then
 * any method the project holds that the registry no longer knows, so that saving never drops one
 * silently (the service then says what is wrong with it).
 */
function methodOptions(networks: NetworkRegistry, held: readonly string[]): MethodOption[] {
  const names = [SANDBOX, ...networks.all().map((n) => n.name)];
  const known = names.flatMap((network) => networkMethods(networks, network, 'USD'));
  const keys = new Set(known.map(methodKey));
  const others = held.filter((k) => !keys.has(k)).map(parseMethodKey);
  return [...known, ...others].map((m) => ({
    key: methodKey(m),
    label: methodLabel(networks, m),
    network: m.network,
  }));
}

/** `polygon:USDC` → `{ network: 'polygon', currency: 'USDC' }`, as the form's checkboxes write methods. */
export function parseMethodKey(key: string): PaymentMethod {
  const at = key.lastIndexOf(':');
  const network = at < 0 ? key : key.slice(0, at);
  const currency = at < 0 ? '' : key.slice(at + 1);
  return { network, currency } as PaymentMethod;
}

/** The Settings form's view of the catalog: with what this instance knows of the networks' nodes. */
export type SettingsCatalog = Catalog & { watching: Watching };

/**
 * What people should know of a network before they accept payments on it, beside its checkboxes:
 * above all why its methods are not offered to payers (contract §21), in the rule's own words.
 */
function networkNote(catalog: SettingsCatalog, name: string, form: PaymentForm): string {
  if (name === SANDBOX) return 'simulated payments';
  const n = catalog.networks.get(name);
  if (!n) return 'unknown network';
  const unwatched = catalog.watching.unwatched(name);
  const notes = [
    isTestNetwork(catalog.networks, name) ? 'testnet' : '',
    unwatched ? `not offered to payers: ${unwatched}` : '',
  ];
  const noForwarders =
    n.family === 'evm' && form.payout_address.trim() !== '' && catalog.watching.noForwarders(name);
  if (!unwatched && noForwarders) {
    notes.push(
      form.evm_xpub.trim() !== ''
        ? `no forwarders here: ${noForwarders}; payers get the EVM xpub's addresses`
        : `not offered to payers: ${noForwarders}, and there is no EVM xpub to use instead`,
    );
  }
  return notes.filter(Boolean).join(', ');
}

/** The payment part of the Settings form (contract §15): methods, invoice currency, tolerance, keys. */
export function paymentFields(
  catalog: SettingsCatalog,
  form: PaymentForm,
  previews: Partial<Record<FamilyName, AddressPreview>>,
): Html {
  const { networks } = catalog;
  // At par first, then every currency an enabled rate source quotes (contract §19), A to Z.
  const currencies = [...INVOICE_CURRENCIES, ...[...catalog.rates.currencies].sort()];
  const ticked = new Set(form.payment_methods);
  const options = methodOptions(networks, form.payment_methods);
  const byNetwork = [...new Set(options.map((o) => o.network))].map((network) => ({
    network,
    options: options.filter((o) => o.network === network),
    note: networkNote(catalog, network, form),
  }));
  const currency = (c: string) =>
    html`<option value="${c}"${c === form.currency ? html` selected` : ''}>${c}</option>`;
  return html`<fieldset class="methods"><legend>Payment methods</legend>
<p class="hint">Payers choose among these on the payment page. Live networks and test ones (the sandbox and testnets) cannot be mixed in one project. A method whose network is not watched (no RPC URL, or its node has not answered) is not offered to payers: the operator sets one (PAYDESK_RPC_&lt;NAME&gt;) before its payments are seen.</p>
<ul>${byNetwork.map(
    (g) =>
      html`<li>${g.options.map(
        (o) =>
          html`<label class="check"><input type="checkbox" name="payment_methods" value="${o.key}"${ticked.has(o.key) ? html` checked` : ''}> ${o.label}</label>`,
      )}${g.note ? html`<span class="muted">${g.note}</span>` : ''}</li>`,
  )}</ul></fieldset>
<div class="field"><label for="currency">Invoice currency</label><select id="currency" name="currency" aria-describedby="currency-hint">${currencies.map(currency)}</select>
<p class="hint" id="currency-hint">What invoice amounts are in. USD is paid in USDT or USDC at par (1 USD = 1 USDT = 1 USDC); USDT or USDC only in that token. Any other currency (EUR, GBP, JPY …) is paid in USDT or USDC at an exchange rate locked when the invoice is made.</p></div>
<div class="field"><label for="tolerance">Underpayment tolerance (%)</label><input id="tolerance" name="underpayment_tolerance_percent" type="text" inputmode="decimal" maxlength="20" autocomplete="off" value="${form.underpayment_tolerance_percent}" aria-describedby="tolerance-hint">
<p class="hint" id="tolerance-hint">An invoice counts as paid when this much of it or less is missing (wallets and exchanges sometimes take a fee): 0 to 50, up to two decimals. Empty means 0.</p></div>
${keyFields(networks).map((k) => keyField(k, form[`${k.family}_xpub`], previews[k.family]))}
<div class="field"><label for="payout-address">Payout address</label><input id="payout-address" name="payout_address" type="text" maxlength="42" spellcheck="false" autocomplete="off" value="${form.payout_address}" aria-describedby="payout-hint">
<p class="hint" id="payout-hint">Optional. An EVM address of yours (an account or a Safe), exactly as your wallet shows it. When set, EVM payments arrive at forwarders that can only ever send to it, and Paydesk collects them in one transaction per up to 100 payments, without holding any key to your funds. Empty: EVM payments go straight to the EVM xpub's addresses.</p></div>${
    networks.all().some((n) => n.family === 'solana') ? solanaField(form.solana_address) : ''
  }`;
}

/** Contract §24: the wallet whose token accounts receive Solana payments (one rule, networks/methods.ts). */
function solanaField(value: string): Html {
  return html`<div class="field"><label for="solana-address">Solana wallet address</label><input id="solana-address" name="solana_address" type="text" maxlength="64" spellcheck="false" autocomplete="off" value="${value}" aria-describedby="solana-hint">
<p class="hint" id="solana-hint">Needed when a Solana method is ticked: your wallet's own address (base58, as Phantom or Solflare shows it), not a token account. USDC and USDT paid on Solana go straight into its token accounts; Paydesk never holds a key.</p></div>`;
}

function keyField(k: KeyField, value: string, preview: AddressPreview | undefined): Html {
  const id = `${k.family}-xpub`;
  return html`<div class="field"><label for="${id}">${k.label}</label><textarea id="${id}" name="${k.family}_xpub" rows="3" maxlength="200" spellcheck="false" autocomplete="off" aria-describedby="${id}-hint" data-preview-network="${k.previewNetwork}" data-preview-title="${previewTitle(k)}">${value}</textarea>
<p class="hint" id="${id}-hint">The account-level extended public key (${k.path}) of the wallet that receives ${k.family === 'evm' ? 'payments on every EVM network (one address serves them all)' : 'TRON payments'}. Needed when ${k.family === 'evm' ? 'an EVM' : 'a TRON'} method is ticked. Paydesk never needs a private key.</p>
<div id="${id}-preview" aria-live="polite">${preview ? previewList(previewTitle(k), preview) : ''}</div></div>`;
}

const previewTitle = (k: Pick<KeyField, 'family'>) =>
  `First deposit addresses (${k.family === 'evm' ? 'EVM networks' : 'TRON'})`;

export function previewList(title: string, preview: AddressPreview): Html {
  return html`<div class="panel"><h2>${title}</h2><p class="hint">Check that your wallet lists these same receiving addresses before you save.</p>
<ol start="0">${preview.addresses.map((a) => html`<li><code>${a.address}</code></li>`)}</ol></div>`;
}
