import { type Decimal, formatDecimal, parseRate } from './decimal.js';
import { asOf, get, json } from './http.js';
import { type Pair, type RateSource, SourceError } from './rate.js';
import type { SourceEndpoint } from './settings.js';

export interface SourceOptions {
  readonly endpoint: SourceEndpoint;
  readonly timeoutMs: number;
  readonly maxAgeMs: number;
  readonly clock: () => Date;
}

/**
 * Kraken's public Ticker (GET /0/public/Ticker?pair=USDTEUR; docs.kraken.com/api/docs/rest-api/
 * get-ticker-information). Kraken names a pair by its two asset codes run together and answers
 * `{ error: [...], result: { <its own name for the pair>: { a: [ask, …], b: [bid, …], … } } }`,
 * keyed by its canonical name ("USDTZUSD" for "USDTUSD"), so the one entry is taken whatever its key.
 * The rate is the middle of the best bid and ask. The ticker carries no time: see http.ts asOf.
 */
export function krakenSource(o: SourceOptions): RateSource {
  return {
    name: 'kraken',
    maxAgeMs: o.maxAgeMs,
    async quote(pair, signal) {
      const answer = await get(o.endpoint, `/0/public/Ticker?pair=${krakenPair(pair)}`, {
        timeoutMs: o.timeoutMs,
        signal,
        accept: 'application/json',
      });
      const now = o.clock();
      if (answer.status !== 200) throw new SourceError('http_error', `HTTP ${answer.status}`);
      const value = parseKrakenTicker(json(answer));
      return {
        source: 'kraken',
        pair: `${pair.base}/${pair.quote}`,
        value,
        fetchedAt: now,
        asOf: asOf(answer, now),
      };
    },
  };
}

export const krakenPair = (p: Pair) => `${p.base}${p.quote}`;

/** The mid price of a Ticker answer for one pair, or SourceError. */
export function parseKrakenTicker(body: unknown): string {
  const b = body as { error?: unknown; result?: unknown };
  if (typeof b !== 'object' || b === null || !Array.isArray(b.error)) {
    throw new SourceError('malformed', 'no error array');
  }
  // "E…" entries are errors, "W…" warnings (Kraken's API error format); a warning still carries a result.
  const errors = b.error.filter((e) => typeof e !== 'string' || !e.startsWith('W'));
  if (errors.includes('EQuery:Unknown asset pair'))
    throw new SourceError('unsupported_pair', 'unknown asset pair');
  if (errors.length > 0) throw new SourceError('source_error', 'Kraken answered with an error');
  const result = b.result;
  if (typeof result !== 'object' || result === null) throw new SourceError('malformed', 'no result');
  const tickers = Object.values(result);
  if (tickers.length !== 1) throw new SourceError('malformed', 'not exactly one ticker');
  const t = tickers[0] as { a?: unknown; b?: unknown };
  const ask = Array.isArray(t?.a) ? parseRate(t.a[0]) : undefined;
  const bid = Array.isArray(t?.b) ? parseRate(t.b[0]) : undefined;
  if (!ask || !bid) throw new SourceError('malformed', 'no bid or ask');
  const scale = Math.max(ask.scale, bid.scale);
  const up = (d: Decimal) => d.units * 10n ** BigInt(scale - d.scale);
  if (up(bid) > up(ask)) throw new SourceError('malformed', 'the bid is above the ask');
  // (ask + bid) / 2 exactly: ×5 at one more decimal.
  return formatDecimal({ units: (up(ask) + up(bid)) * 5n, scale: scale + 1 });
}
