import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.js';

/** The till's forms post urlencoded; a field sent several times (each item's quantity) becomes a list. */
export function acceptTillForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 8 * 1024 },
    (_request, body, done) => {
      const out: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(body as string)) {
        if (key !== 'pin' && key !== 'amount' && key !== 'qty') {
          const field = key.slice(0, 40);
          done(
            ApiError.validation([{ in: 'body', field, rule: 'unknown', message: `Unknown field ${field}` }]),
          );
          return;
        }
        const prior = out[key];
        out[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
      }
      done(null, out);
    },
  );
}

/** A form field that may come once or several times, as a list. */
export const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
