import type { FastifyInstance } from 'fastify';
import { ApiError, type FieldError } from '../http/errors.js';
import { ProjectChangesSchema } from '../merchants/fields.js';
import { MAX_TTL_SECONDS, MIN_TTL_SECONDS } from '../merchants/merchant.js';
import type { ProjectChanges } from '../merchants/service.js';
import type { SettingsForm } from './views/settings.js';

/**
 * The Settings form as the change PATCH /v1/admin/projects/{id} takes, held to the same field rules
 * (merchants/fields.ts): the form only trims its text fields and turns minutes into seconds. Errors
 * keep their rule names; the lifetime's are said in the form's own unit.
 */
export function settingsChanges(app: FastifyInstance, form: SettingsForm): ProjectChanges {
  const minutes = form.ttl_minutes.trim();
  const xpub = form.xpub.trim();
  const changes = {
    name: form.name,
    invoice_ttl_seconds: /^\d{1,7}$/.test(minutes) ? Number(minutes) * 60 : minutes,
    network: form.network,
    currency: form.currency,
    xpub: xpub === '' ? null : xpub,
  };
  // The name is checked as typed (so "   " breaks the same rule as through the API) and stored trimmed.
  const errors = app.checkFields(ProjectChangesSchema, changes).map(inMinutes);
  if (errors.length > 0) throw ApiError.validation(errors);
  return { ...changes, name: changes.name.trim() } as ProjectChanges;
}

function inMinutes(e: FieldError): FieldError {
  if (e.field !== 'invoice_ttl_seconds') return e;
  return {
    ...e,
    field: 'ttl_minutes',
    message: `The invoice lifetime must be a whole number of minutes from ${MIN_TTL_SECONDS / 60} to ${MAX_TTL_SECONDS / 60} (7 days)`,
  };
}
