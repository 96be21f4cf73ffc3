import { type Decimal, parseRate, withinSpread } from './decimal.js';
import type { Unavailable } from './errors.js';
import type { Failure, Quote, RateSource } from './rate.js';

export type Outcome =
  | { readonly ok: true; readonly quote: Quote }
  | { readonly ok: false; readonly reason: Failure };

/** `confirmed`: a second fresh source agreed within the spread (contract §21 asks it of a big move). */
export type Decision = { ok: true; rate: Quote; confirmed: boolean } | { ok: false; why: Unavailable };

export const isFresh = (q: Quote, source: RateSource, now: Date) =>
  now.getTime() - q.asOf.getTime() <= source.maxAgeMs;

/**
 * The pricing rule of contract §19, over answers already asked for (every enabled source at once, so
 * the wait is one source's timeout, not their sum). Walking in the operator's order: the first fresh
 * answer prices; the next fresh answer checks it, and a disagreement beyond the spread means no rate.
 * A source behind the first two fresh ones is not waited for. One fresh answer alone prices: the
 * others failing is what the fallback is for, unless the rate moved far (plausible.ts).
 */
export async function decide(
  answers: ReadonlyArray<{ source: RateSource; outcome: Promise<Outcome> }>,
  clock: () => Date,
  maxSpreadPercent: Decimal,
): Promise<Decision> {
  let first: { quote: Quote; value: Decimal } | undefined;
  for (const { source, outcome } of answers) {
    const o = await outcome;
    if (!o.ok || !isFresh(o.quote, source, clock())) continue;
    // Contract §21: a rate that is not a positive finite decimal is never used, wherever it came from
    // (the adapters refuse one, and so does this, for whatever a shared cache hands back).
    const value = parseRate(o.quote.value);
    if (!value) continue;
    if (!first) {
      first = { quote: o.quote, value };
      continue;
    }
    if (!withinSpread(first.value, value, maxSpreadPercent)) return { ok: false, why: 'sources_disagree' };
    return { ok: true, rate: first.quote, confirmed: true };
  }
  return first ? { ok: true, rate: first.quote, confirmed: false } : { ok: false, why: 'no_fresh_rate' };
}
