import { FIAT_CURRENCIES } from '../money/currencies.js';

/** The rate sources Paydesk has adapters for (contract §19); PAYDESK_RATE_SOURCES orders a subset. */
export const SOURCE_NAMES = ['kraken', 'coinbase', 'ecb'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** A comma-separated list of lowercase names; which names are known is checked in rateSettings. */
export const RATE_SOURCE_LIST = '^[a-z]+( *, *[a-z]+)*$';
/** 0 to 100, up to 4 decimals: a decimal string, compared exactly (src/rates/decimal.ts). */
export const SPREAD_PERCENT = '^(0|[1-9][0-9]?|100)(\\.[0-9]{1,4})?$';

/** The ECB publishes once a working day: its rates are allowed a day (contract §19), whatever the maximum age. */
export const ECB_MAX_AGE_SECONDS = 86_400;

export interface SourceEndpoint {
  /** The base URL without credentials, so it can be named in a log line without leaking anything. */
  readonly url: string;
  /** `Basic …` when the configured URL carried a user and password (a proxy's), else undefined. */
  readonly authorization: string | undefined;
}

export interface RateSettings {
  /** In the operator's order: the first that answers prices, the next checks agreement. */
  readonly sources: readonly SourceName[];
  readonly maxAgeMs: number;
  /** A decimal string, e.g. "1" or "0.5". */
  readonly maxSpreadPercent: string;
  /** A decimal string: how far a lone fresh rate may move from the last one used (contract §21). */
  readonly maxJumpPercent: string;
  /** The longest one source is waited for, and so the longest a lookup takes. */
  readonly timeoutMs: number;
  /** How long one answer (or one failure) of a source is reused before the source is asked again. */
  readonly cacheMs: number;
  readonly endpoints: Readonly<Record<SourceName, SourceEndpoint>>;
  /** The fiat currencies an enabled source quotes: what a project may price its invoices in (contract §19). */
  readonly currencies: ReadonlySet<string>;
}

export class RateSettingsError extends Error {}

export interface RawRateSettings {
  sources: string;
  maxAgeSeconds: number;
  maxSpreadPercent: string;
  /** Default "10". */
  maxJumpPercent?: string | undefined;
  timeoutMs: number;
  /** Unset: the smaller of 10 s and the maximum age. */
  cacheSeconds?: number | undefined;
  urls: Record<SourceName, string>;
}

export function rateSettings(raw: RawRateSettings): RateSettings {
  const sources = raw.sources.split(',').map((s) => s.trim());
  const unknown = sources.filter((s) => !(SOURCE_NAMES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new RateSettingsError(
      `PAYDESK_RATE_SOURCES: unknown source ${unknown.map((s) => JSON.stringify(s.slice(0, 20))).join(', ')}; known: ${SOURCE_NAMES.join(', ')}`,
    );
  }
  if (new Set(sources).size !== sources.length) {
    throw new RateSettingsError('PAYDESK_RATE_SOURCES: a source is named twice');
  }
  if (Number(raw.maxSpreadPercent) > 100) {
    throw new RateSettingsError('PAYDESK_RATE_MAX_SPREAD_PERCENT: must be between 0 and 100');
  }
  if (Number(raw.maxJumpPercent ?? DEFAULT_JUMP_PERCENT) > 100) {
    throw new RateSettingsError('PAYDESK_RATE_MAX_JUMP_PERCENT: must be between 0 and 100');
  }
  return Object.freeze({
    sources: Object.freeze(sources as SourceName[]),
    maxAgeMs: raw.maxAgeSeconds * 1000,
    maxSpreadPercent: raw.maxSpreadPercent,
    maxJumpPercent: raw.maxJumpPercent ?? DEFAULT_JUMP_PERCENT,
    timeoutMs: raw.timeoutMs,
    cacheMs: cacheSeconds(raw) * 1000,
    endpoints: Object.freeze({
      kraken: endpoint('PAYDESK_RATE_KRAKEN_URL', raw.urls.kraken),
      coinbase: endpoint('PAYDESK_RATE_COINBASE_URL', raw.urls.coinbase),
      ecb: endpoint('PAYDESK_RATE_ECB_URL', raw.urls.ecb),
    }),
    currencies: quotedCurrencies(sources as SourceName[]),
  });
}

export const DEFAULT_JUMP_PERCENT = '10';
const DEFAULT_CACHE_SECONDS = 10;

/**
 * Contract §21: no combination of defaults and one variable stops the server. A cached answer older
 * than the maximum age would never be used anyway, so the cache is at most the maximum age: by default
 * the smaller of 10 s and it, and a longer cache asked for is shortened to it rather than refused.
 */
function cacheSeconds(raw: RawRateSettings): number {
  return Math.min(raw.cacheSeconds ?? DEFAULT_CACHE_SECONDS, raw.maxAgeSeconds);
}

/**
 * fetch refuses a URL with credentials in it, and such a URL must never reach a log: a proxy's user and
 * password become an Authorization header, and the URL kept is the bare one.
 */
function endpoint(variable: string, value: string): SourceEndpoint {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RateSettingsError(`${variable}: not a URL`);
  }
  if (url.search || url.hash)
    throw new RateSettingsError(`${variable}: a base URL takes no query or fragment`);
  const authorization =
    url.username || url.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : undefined;
  url.username = '';
  url.password = '';
  return Object.freeze({ url: url.toString().replace(/\/+$/, ''), authorization });
}

/**
 * Which currencies each source prices USDT and USDC in, so a project's currency is checked when it is
 * set, without asking any source (contract §19: "an ISO 4217 code an enabled rate source quotes").
 * A source that stops quoting one later answers `unsupported_pair`, and the next source is tried.
 */
const QUOTED: Record<SourceName, readonly string[]> = {
  // Kraken's spot markets for USDT and USDC against fiat (its asset pairs list).
  kraken: ['EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'JPY'],
  // Coinbase's prices API answers for the fiat currencies of its /v2/currencies list: every active ISO
  // 4217 code we know of is asked, and one it lacks is an `unsupported_pair` at lookup.
  coinbase: FIAT_CURRENCIES,
  // The ECB's daily reference rates: the euro and the currencies it publishes against it.
  ecb: 'EUR USD JPY CZK DKK GBP HUF PLN RON SEK CHF ISK NOK TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR NZD PHP SGD THB ZAR'.split(
    ' ',
  ),
};

/** The fiat currencies (never USD, which is paid at par) that at least one enabled source quotes. */
export function quotedCurrencies(sources: readonly SourceName[]): ReadonlySet<string> {
  const fiat = new Set(FIAT_CURRENCIES);
  return new Set(sources.flatMap((s) => QUOTED[s]).filter((c) => fiat.has(c)));
}
