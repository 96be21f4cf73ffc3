import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import type { SourceHealth } from '../rates/book.js';
import { FAILURES, type Failure } from '../rates/rate.js';
import { rateBookOf } from '../rates/registry.js';

export const RateSourcesSchema = Type.Array(
  Type.Object({
    source: Type.String({ description: 'A rate source, in the order PAYDESK_RATE_SOURCES tries them' }),
    status: StringEnum(['ok', 'failing', 'untried'], {
      description:
        'The last outcome of asking it: "failing" when its last answer was unusable (no answer in time, an error, a malformed or stale answer). A failing source never makes health fail; invoices fall back to the next source',
    }),
    checked_at: nullable(Timestamp),
    reason: Type.Unsafe<Failure | null>({
      type: ['string', 'null'],
      enum: [...FAILURES, null],
      description: 'Why its last answer was unusable; null when it was usable',
    }),
  }),
  {
    description:
      'Exchange-rate sources (contract §19), as this instance last found them; no source is asked for this',
  },
);

/** What this instance last saw of each rate source; sources it has not asked yet are `untried`. */
export function rateSourcesOf(app: FastifyInstance): SourceHealth[] {
  const book = rateBookOf(app.db);
  if (book) return book.health();
  return app.config.rates.sources.map((source) => ({
    source,
    status: 'untried',
    checked_at: null,
    reason: null,
  }));
}
