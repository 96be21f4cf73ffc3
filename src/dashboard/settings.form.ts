import type { FastifyInstance } from 'fastify';
import { ApiError, type FieldError } from '../http/errors.js';
import { ProjectChangesSchema } from '../merchants/fields.js';
import { MAX_TTL_SECONDS, MIN_TTL_SECONDS } from '../merchants/merchant.js';
import type { ProjectRow } from '../merchants/merchant.table.js';
import type { ProjectChanges } from '../merchants/service.js';
import type { FamilyName } from '../networks/family.js';
import { MAX_METHODS, methodKey, methodLabel, type PaymentMethod } from '../networks/methods.js';
import type { NetworkRegistry } from '../networks/network.js';
import { type AddressPreview, previewAddresses } from '../networks/preview.js';
import { keyFields, parseMethodKey } from './views/payment-settings.js';
import type { SettingsForm } from './views/settings.js';

/**
 * The Settings form as the change PATCH /v1/admin/projects/{id} takes, held to the same field rules
 * (merchants/fields.ts): the form only trims its text, turns minutes into seconds and the tolerance's
 * text into a number, and the ticked checkboxes into `payment_methods`. Errors keep their rule names
 * and are said in the form's own terms.
 */
export function settingsChanges(
  app: FastifyInstance,
  form: SettingsForm,
  current: ProjectRow,
): ProjectChanges {
  const minutes = form.ttl_minutes.trim();
  const changes = {
    name: form.name,
    invoice_ttl_seconds: /^\d{1,7}$/.test(minutes) ? Number(minutes) * 60 : minutes,
    currency: form.currency,
    payment_methods: inCurrentOrder(current.payment_methods, form.payment_methods).map(parseMethodKey),
    underpayment_tolerance_percent: percent(form.underpayment_tolerance_percent),
    ...changedKey('evm_xpub', form.evm_xpub, current.evm_xpub),
    ...changedKey('tron_xpub', form.tron_xpub, current.tron_xpub),
    ...changedKey('payout_address', form.payout_address, current.payout_address),
    ...changedKey('solana_address', form.solana_address, current.solana_address),
  };
  // The name is checked as typed (so "   " breaks the same rule as through the API) and stored trimmed.
  const errors = app.checkFields(ProjectChangesSchema, changes);
  if (errors.length > 0) {
    throw ApiError.validation(inFormTerms(app.config.networks, errors, changes.payment_methods));
  }
  return { ...changes, name: changes.name.trim() } as ProjectChanges;
}

/**
 * The methods in the order the payment page offers them: the ones the project accepts keep their
 * place (so saving a new name never changes which network `network` reads as), newly ticked ones
 * follow in the form's order. Checkboxes cannot say an order; the admin API can.
 */
function inCurrentOrder(current: readonly PaymentMethod[], ticked: readonly string[]): string[] {
  const held = current.map(methodKey);
  const rank = (k: string) => (held.includes(k) ? held.indexOf(k) : held.length);
  return ticked
    .map((key, i) => ({ key, i }))
    .sort((a, b) => rank(a.key) - rank(b.key) || a.i - b.i)
    .map((m) => m.key);
}

/** The tolerance as typed: a plain decimal becomes a number for the rules to weigh; empty is 0. */
function percent(text: string): number | string {
  const t = text.trim();
  if (t === '') return 0;
  return /^-?\d{1,6}(\.\d{1,12})?$/.test(t) ? Number(t) : t;
}

/**
 * A key is sent only when the merchant changed it, as a PATCH would: a key kept in its field after
 * the last method of its family was unticked stays stored (the service keeps a key no method uses),
 * instead of being refused as a key sent for no method. Emptied, it is sent as null.
 */
function changedKey(
  field: 'evm_xpub' | 'tron_xpub' | 'payout_address' | 'solana_address',
  text: string | undefined,
  stored: string | null,
) {
  if (text === undefined) return {};
  const value = text.trim() === '' ? null : text.trim();
  return value === stored ? {} : { [field]: value };
}

/**
 * A refused change in the form's terms: the lifetime in minutes, the tolerance as a range, a method
 * by its label ("USDC on TRON: …"). Field and rule stay as the API names them.
 */
export function inFormTerms(
  networks: NetworkRegistry,
  errors: readonly FieldError[],
  methods: readonly PaymentMethod[],
): FieldError[] {
  return errors.map((e) => {
    if (e.field === 'invoice_ttl_seconds') {
      return {
        ...e,
        field: 'ttl_minutes',
        message: `The invoice lifetime must be a whole number of minutes from ${MIN_TTL_SECONDS / 60} to ${MAX_TTL_SECONDS / 60} (7 days)`,
      };
    }
    if (e.field === 'underpayment_tolerance_percent') {
      return {
        ...e,
        message: 'The underpayment tolerance must be a number from 0 to 50, with at most two decimals',
      };
    }
    if (e.field === 'payment_methods' && (e.rule === 'min_items' || e.rule === 'max_items')) {
      return { ...e, message: `Tick at least one payment method and at most ${MAX_METHODS}` };
    }
    const at = /^payment_methods\.(\d+)/.exec(e.field);
    const method = at ? methods[Number(at[1])] : undefined;
    return method ? { ...e, message: `${methodLabel(networks, method)}: ${e.message}` } : e;
  });
}

/**
 * The first three deposit addresses of each key in the form ("Preview addresses", and the saved keys
 * on the page), derived on the first network of the key's family: they are the same on all of them.
 */
export function previewsOf(networks: NetworkRegistry, form: SettingsForm) {
  const previews: Partial<Record<FamilyName, AddressPreview>> = {};
  const errors: FieldError[] = [];
  for (const k of keyFields(networks)) {
    const xpub = form[`${k.family}_xpub`].trim();
    if (xpub === '') continue;
    try {
      previews[k.family] = previewAddresses(networks, { network: k.previewNetwork, xpub, count: 3 });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const found = (err.details.errors as FieldError[] | undefined) ?? [];
      errors.push(...found.map((e) => ({ ...e, field: `${k.family}_xpub` })));
    }
  }
  return { previews, errors };
}
