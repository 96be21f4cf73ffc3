import { formatDecimal, parseRate } from './decimal.js';
import { asOf, get, json } from './http.js';
import type { SourceOptions } from './kraken.js';
import { type Pair, type RateSource, SourceError } from './rate.js';

/**
 * Coinbase's public spot price (GET /v2/prices/USDT-EUR/spot; docs.cdp.coinbase.com/coinbase-app/
 * track-apis/prices): `{ data: { amount, base, currency } }`, errors as `{ errors: [{ id, message }] }`
 * with a 4xx or 5xx status (docs.cdp.coinbase.com/coinbase-app/api-architecture/error-messages).
 * The answer carries no time: see http.ts asOf.
 */
export function coinbaseSource(o: SourceOptions): RateSource {
  return {
    name: 'coinbase',
    maxAgeMs: o.maxAgeMs,
    async quote(pair, signal) {
      const answer = await get(o.endpoint, `/v2/prices/${coinbasePair(pair)}/spot`, {
        timeoutMs: o.timeoutMs,
        signal,
        accept: 'application/json',
      });
      const now = o.clock();
      // An unknown pair is a 400 or 404 with errors[]: the source works, it just does not quote this.
      if (answer.status === 400 || answer.status === 404) {
        throw new SourceError('unsupported_pair', `HTTP ${answer.status}`);
      }
      if (answer.status !== 200) throw new SourceError('http_error', `HTTP ${answer.status}`);
      const value = parseCoinbaseSpot(json(answer), pair);
      return {
        source: 'coinbase',
        pair: `${pair.base}/${pair.quote}`,
        value,
        fetchedAt: now,
        asOf: asOf(answer, now),
      };
    },
  };
}

export const coinbasePair = (p: Pair) => `${p.base}-${p.quote}`;

export function parseCoinbaseSpot(body: unknown, pair: Pair): string {
  const data = (body as { data?: unknown } | null)?.data as
    | { amount?: unknown; base?: unknown; currency?: unknown }
    | undefined;
  if (typeof data !== 'object' || data === null) throw new SourceError('malformed', 'no data object');
  // Older answers leave out `base`; when present, both must be what was asked for.
  if ((data.base !== undefined && data.base !== pair.base) || data.currency !== pair.quote) {
    throw new SourceError('malformed', 'the answer is for another pair');
  }
  const amount = parseRate(data.amount);
  if (!amount) throw new SourceError('malformed', 'the amount is not a positive decimal');
  return formatDecimal(amount);
}
