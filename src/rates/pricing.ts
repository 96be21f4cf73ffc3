import { type Decimal, parseRate, withinSpread } from './decimal.js';
import type { Unavailable } from './errors.js';
import type { Failure, Quote, RateSource } from './rate.js';

export type Outcome =
  | { readonly ok: true; readonly quote: Quote }
  | { readonly ok: false; readonly reason: Failure };

export type Decision = { ok: true; rate: Quote } | { ok: false; why: Unavailable };

export const isFresh = (q: Quote, source: RateSource, now: Date) =>
  now.getTime() - q.asOf.getTime() <= source.maxAgeMs;

/**
 * The pricing rule of contract §19, over answers already asked for (every enabled source at once, so
 * the wait is one source's timeout, not their sum). Walking in the operator's order: the first fresh
 * answer prices; the next fresh answer checks it, and a disagreement beyond the spread means no rate.
 * A source behind the first two fresh ones is not waited for. One fresh answer alone prices: the
 * others failing is what the fallback is for.
 */
export async function decide(
  answers: ReadonlyArray<{ source: RateSource; outcome: Promise<Outcome> }>,
  clock: () => Date,
  maxSpreadPercent: Decimal,
): Promise<Decision> {
  let first: Quote | undefined;
  for (const { source, outcome } of answers) {
    const o = await outcome;
    if (!o.ok || !isFresh(o.quote, source, clock())) continue;
    if (!first) {
      first = o.quote;
      continue;
    }
    const a = parseRate(first.value);
    const b = parseRate(o.quote.value);
    if (!a || !b || !withinSpread(a, b, maxSpreadPercent)) return { ok: false, why: 'sources_disagree' };
    return { ok: true, rate: first };
  }
  return first ? { ok: true, rate: first } : { ok: false, why: 'no_fresh_rate' };
}
