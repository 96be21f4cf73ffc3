import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.js';

export const FORM_BODY_LIMIT = 16 * 1024;

/**
 * HTML forms post `application/x-www-form-urlencoded`; only the dashboard's scope accepts it. A field
 * sent several times (checkboxes) becomes an array. The decoded text goes through the same checks as
 * JSON (http/input.ts: no NUL, no lone surrogates) in the app's preValidation hook.
 */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const out: Record<string, string | string[]> = Object.create(null);
      try {
        for (const [key, value] of new URLSearchParams(body as string)) {
          if (key === '__proto__') throw new Error('forbidden key');
          const prior = out[key];
          out[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
        }
      } catch {
        done(
          ApiError.validation([
            { in: 'body', field: 'body', rule: 'invalid_form', message: 'The form could not be read' },
          ]),
          undefined,
        );
        return;
      }
      done(null, { ...out });
    },
  );
}

/** A form field as one string ('' when absent; the first when sent twice). */
export function field(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(v)) return String(v[0] ?? '');
  return typeof v === 'string' ? v : '';
}

/** A form field as a list (checkboxes). */
export function fields(body: unknown, name: string): string[] {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(v)) return v.map(String);
  return typeof v === 'string' ? [v] : [];
}
