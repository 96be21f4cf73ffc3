import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  COINBASE_NOT_FOUND,
  coinbaseSpot,
  ECB_DAILY,
  KRAKEN_DOC_EXAMPLE,
  KRAKEN_UNKNOWN_PAIR,
  krakenTicker,
} from '../../test/rate-sources.js';
import { parseCoinbaseSpot } from './coinbase.js';
import { crossRate, parseEcbDaily } from './ecb.js';
import { parseKrakenTicker } from './kraken.js';
import { SourceError } from './rate.js';

const USDT_EUR = { base: 'USDT', quote: 'EUR' };

/** Whatever comes in, a parser answers a value or throws SourceError: never another error, never NaN. */
function total(parse: () => string) {
  try {
    expect(parse()).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
  }
}

describe('Kraken Ticker', () => {
  test("the documented example: the middle of the best bid and ask, whatever Kraken's key for the pair", () => {
    expect(parseKrakenTicker(KRAKEN_DOC_EXAMPLE)).toBe('30300.05');
    expect(parseKrakenTicker(krakenTicker('USDTEUR', '0.92440', '0.92450'))).toBe('0.92445');
  });

  test('its error array: an unknown pair, any other error, and a warning that still carries a result', () => {
    expect(() => parseKrakenTicker(KRAKEN_UNKNOWN_PAIR)).toThrow(
      expect.objectContaining({ reason: 'unsupported_pair' }),
    );
    expect(() => parseKrakenTicker({ error: ['EService:Unavailable'] })).toThrow(
      expect.objectContaining({ reason: 'source_error' }),
    );
    const warned = { ...krakenTicker('USDTEUR', '0.9', '0.91'), error: ['WGeneral:Something'] };
    expect(parseKrakenTicker(warned)).toBe('0.905');
  });

  test('any JSON value, and any mangling of the documented answer, is a value or a SourceError', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => total(() => parseKrakenTicker(v))));
    const mangled = fc.record({
      error: fc.oneof(fc.constant([]), fc.array(fc.string())),
      result: fc.dictionary(
        fc.string(),
        fc.record({ a: fc.array(fc.oneof(fc.string(), fc.double())), b: fc.array(fc.string()) }),
      ),
    });
    fc.assert(fc.property(mangled, (v) => total(() => parseKrakenTicker(v))));
  });
});

describe('Coinbase spot', () => {
  test('the documented shape; `base` may be absent; another pair is malformed', () => {
    expect(parseCoinbaseSpot(coinbaseSpot('USDT', 'EUR', '0.9246'), USDT_EUR)).toBe('0.9246');
    expect(parseCoinbaseSpot({ data: { amount: '0.92460', currency: 'EUR' } }, USDT_EUR)).toBe('0.9246');
    expect(() => parseCoinbaseSpot(coinbaseSpot('USDC', 'EUR', '0.92'), USDT_EUR)).toThrow(SourceError);
    expect(() => parseCoinbaseSpot(COINBASE_NOT_FOUND, USDT_EUR)).toThrow(SourceError);
    expect(() => parseCoinbaseSpot(coinbaseSpot('USDT', 'EUR', '9.2e-1'), USDT_EUR)).toThrow(SourceError);
  });

  test('any JSON value is a value or a SourceError', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => total(() => parseCoinbaseSpot(v, USDT_EUR))));
    fc.assert(
      fc.property(fc.string(), (amount) =>
        total(() => parseCoinbaseSpot(coinbaseSpot('USDT', 'EUR', amount), USDT_EUR)),
      ),
    );
  });
});

describe('ECB daily reference rates', () => {
  test('the published sheet: its day at 14:15 Frankfurt time, and cross rates through the euro', () => {
    const sheet = parseEcbDaily(ECB_DAILY);
    expect(sheet.asOf.toISOString()).toBe('2024-06-28T12:15:00.000Z'); // CEST, UTC+2
    expect(sheet.perEuro.size).toBe(31);
    expect(crossRate(sheet, { base: 'USD', quote: 'EUR' })).toBe('0.934142923867');
    expect(crossRate(sheet, { base: 'EUR', quote: 'USD' })).toBe('1.0705');
    expect(crossRate(sheet, { base: 'USD', quote: 'JPY' })).toBe('160.616534329752');
    expect(() => crossRate(sheet, { base: 'USD', quote: 'XYZ' })).toThrow(
      expect.objectContaining({ reason: 'unsupported_pair' }),
    );
  });

  test('a winter day is 13:15 UTC (CET)', () => {
    const winter = ECB_DAILY.replace("time='2024-06-28'", "time='2024-01-05'");
    expect(parseEcbDaily(winter).asOf.toISOString()).toBe('2024-01-05T13:15:00.000Z');
  });

  test.each([
    ['an HTML error page', '<html><body>Service unavailable</body></html>'],
    [
      'two days',
      ECB_DAILY.replace('</Cube>\n\t</Cube>', "</Cube>\n\t\t<Cube time='2024-06-27'></Cube>\n\t</Cube>"),
    ],
    ['no rates', ECB_DAILY.replace(/\t\t\t<Cube currency=.*\n/g, '')],
    ['a rate that is not a decimal', ECB_DAILY.replace("rate='1.0705'", "rate='1,0705'")],
    ['a day that is not a date', ECB_DAILY.replace('2024-06-28', '2024-13-45')],
  ])('refuses %s as malformed', (_, xml) => {
    expect(() => parseEcbDaily(xml)).toThrow(expect.objectContaining({ reason: 'malformed' }));
  });

  test('any string, and any string spliced into the sheet, is a sheet or a SourceError', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(ECB_DAILY.length), (s, at) => {
        for (const xml of [s, ECB_DAILY.slice(0, at) + s + ECB_DAILY.slice(at)]) {
          total(() => crossRate(parseEcbDaily(xml), { base: 'USD', quote: 'EUR' }));
        }
      }),
    );
  });
});
