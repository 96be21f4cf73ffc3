import { type Decimal, divide, formatDecimal, parseRate } from './decimal.js';
import { get } from './http.js';
import type { SourceOptions } from './kraken.js';
import { type Pair, type RateSource, SourceError } from './rate.js';

/**
 * The ECB's euro foreign exchange reference rates (GET /eurofxref-daily.xml under
 * https://www.ecb.europa.eu/stats/eurofxref): one `<Cube time='YYYY-MM-DD'>` holding
 * `<Cube currency='USD' rate='1.0705'/>` per currency, each the price of one euro. Any other pair is a
 * cross rate of two of them. The ECB quotes no token: USDT and USDC are taken at par with USD, as
 * Paydesk prices USD invoices, and the quote says so in its pair ("USD/EUR"), so the agreement check
 * against an exchange's USDT price also catches a stablecoin that lost its peg.
 */
export function ecbSource(o: SourceOptions): RateSource {
  return {
    name: 'ecb',
    maxAgeMs: o.maxAgeMs,
    async quote(pair, signal) {
      const answer = await get(o.endpoint, '/eurofxref-daily.xml', {
        timeoutMs: o.timeoutMs,
        signal,
        accept: 'application/xml, text/xml',
      });
      const now = o.clock();
      if (answer.status !== 200) throw new SourceError('http_error', `HTTP ${answer.status}`);
      const sheet = parseEcbDaily(answer.body);
      const asked = { base: atPar(pair.base), quote: atPar(pair.quote) };
      return {
        source: 'ecb',
        pair: `${asked.base}/${asked.quote}`,
        value: crossRate(sheet, asked),
        fetchedAt: now,
        asOf: sheet.asOf,
      };
    },
  };
}

const AT_PAR_WITH_USD = new Set(['USDT', 'USDC']);
const atPar = (code: string) => (AT_PAR_WITH_USD.has(code) ? 'USD' : code);

export interface EcbSheet {
  /** The reference day's concertation, 14:15 Frankfurt time: the rates' age is counted from it. */
  readonly asOf: Date;
  /** Units of each currency per euro; EUR itself is 1. */
  readonly perEuro: ReadonlyMap<string, Decimal>;
}

const DAY = /<Cube\s+time=(["'])(\d{4}-\d{2}-\d{2})\1\s*>/g;
const RATE = /<Cube\s+currency=(["'])([A-Z]{3})\1\s+rate=(["'])([^"']{1,40})\3\s*\/>/g;

/** The daily sheet, or SourceError('malformed'). A regular expression, not an XML parser: the format is fixed and small. */
export function parseEcbDaily(xml: string): EcbSheet {
  if (!xml.includes('gesmes:Envelope')) throw new SourceError('malformed', 'not the ECB reference rates');
  const days = [...xml.matchAll(DAY)];
  const day = days[0]?.[2];
  if (days.length !== 1 || !day) throw new SourceError('malformed', 'not exactly one reference day');
  const asOf = frankfurt(day, 14, 15);
  if (Number.isNaN(asOf.getTime())) throw new SourceError('malformed', 'the reference day is not a date');
  const perEuro = new Map<string, Decimal>([['EUR', { units: 1n, scale: 0 }]]);
  for (const m of xml.matchAll(RATE)) {
    const rate = parseRate(m[4]);
    if (!rate) throw new SourceError('malformed', 'a rate is not a positive decimal');
    perEuro.set(m[2] as string, rate);
  }
  if (perEuro.size < 2) throw new SourceError('malformed', 'no rates');
  return { asOf, perEuro };
}

/** The price of one `base` in `quote`: (quote per euro) / (base per euro). */
export function crossRate(sheet: EcbSheet, pair: Pair): string {
  const base = sheet.perEuro.get(pair.base);
  const quote = sheet.perEuro.get(pair.quote);
  if (!base || !quote) throw new SourceError('unsupported_pair', 'the ECB does not quote this currency');
  return formatDecimal(divide(quote, base));
}

/** The instant a wall-clock time in Frankfurt (CET or CEST) names, on `day`. */
function frankfurt(day: string, hour: number, minute: number): Date {
  const guess = new Date(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`);
  if (Number.isNaN(guess.getTime())) return guess;
  const local = new Date(guess.toLocaleString('en-US', { timeZone: 'Europe/Berlin' }));
  const utc = new Date(guess.toLocaleString('en-US', { timeZone: 'UTC' }));
  return new Date(guess.getTime() - (local.getTime() - utc.getTime()));
}
