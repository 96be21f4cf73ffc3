import type { SourceName } from './settings.js';

/** A currency pair: the price of one `base` in `quote` ("USDT/EUR" 0.92: one USDT is worth 0.92 EUR). */
export interface Pair {
  readonly base: string;
  readonly quote: string;
}

export const pairName = (p: Pair) => `${p.base}/${p.quote}`;

/** One source's answer. `value` is an exact decimal string, never a float. */
export interface Quote {
  readonly source: SourceName;
  /** What the source really quoted, e.g. "USD/EUR" when the ECB answers for USDT at par. */
  readonly pair: string;
  readonly value: string;
  /** When Paydesk received it. */
  readonly fetchedAt: Date;
  /** When the source says the price held (the ECB's reference day; a cache's Date − Age): staleness is judged on it. */
  readonly asOf: Date;
}

/** Why a source gave no usable answer: a closed set, safe for a log line and for /v1/health. */
export const FAILURES = [
  'timeout',
  'unreachable',
  'http_error',
  'malformed',
  'source_error',
  'unsupported_pair',
  'stale',
] as const;
export type Failure = (typeof FAILURES)[number];

export class SourceError extends Error {
  constructor(
    readonly reason: Failure,
    detail: string,
  ) {
    super(detail);
    this.name = 'SourceError';
  }
}

/**
 * A rate source: one public API spoken in its own wire format. `quote` never waits past its own
 * timeout, nor past `signal`; it throws SourceError (never an error that names its URL).
 */
export interface RateSource {
  readonly name: SourceName;
  /** How old an answer of this source may be and still price an invoice. */
  readonly maxAgeMs: number;
  quote(pair: Pair, signal?: AbortSignal): Promise<Quote>;
}
