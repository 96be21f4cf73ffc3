import { ApiError, type FieldError } from '../http/errors.js';
import { MAX_TTL_SECONDS, MIN_TTL_SECONDS } from '../merchants/merchant.js';
import type { ProjectChanges } from '../merchants/service.js';
import { CURRENCIES } from '../networks/network.js';
import type { SettingsForm } from './views/settings.js';

/**
 * The Settings form as the changes updateProject takes. Only what a form adds is checked here (text
 * fields, minutes); the payment settings are left to updateProject, as for the admin API.
 */
export function settingsChanges(form: SettingsForm): ProjectChanges {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) =>
    errors.push({ in: 'body', field, rule: 'invalid', message });
  const name = form.name.trim();
  const minutes = /^\d{1,6}$/.test(form.ttl_minutes.trim()) ? Number(form.ttl_minutes.trim()) : Number.NaN;
  const xpub = form.xpub.trim();
  if (name.length < 1 || name.length > 100) fail('name', 'The project name must be 1 to 100 characters long');
  if (!(minutes * 60 >= MIN_TTL_SECONDS && minutes * 60 <= MAX_TTL_SECONDS)) {
    fail('ttl_minutes', 'The invoice lifetime must be a whole number of minutes from 1 to 10080');
  }
  if (!(CURRENCIES as readonly string[]).includes(form.currency)) fail('currency', 'Choose USDT or USDC');
  if (errors.length) throw ApiError.validation(errors);
  return {
    name,
    invoice_ttl_seconds: minutes * 60,
    network: form.network,
    currency: form.currency,
    xpub: xpub === '' ? null : xpub,
  };
}
