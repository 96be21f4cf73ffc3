import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Money, money } from '../money/money.js';
import { type Decimal, divide, formatDecimal, parseRate, tokenAmount, withinSpread } from './decimal.js';

const ONE = 10n ** 18n;
const rate = fc
  .record({ units: fc.bigInt({ min: 1n, max: 10n ** 20n - 1n }), scale: fc.integer({ min: 0, max: 18 }) })
  .map((d): Decimal => parseRate(formatDecimal(d)) as Decimal);
const fiat = fc.bigInt({ min: 1n, max: 10n ** 15n * 100n }).map((cents) => (cents * 10n ** 16n) as Money);

describe('tokenAmount: fiat / rate, rounded up at the token precision', () => {
  test('never asks less than the price, and never a whole token unit more (exact rationals)', () => {
    fc.assert(
      fc.property(fiat, rate, fc.integer({ min: 0, max: 18 }), (f, r, decimals) => {
        const amount = tokenAmount(f, r, decimals);
        const unit = 10n ** BigInt(18 - decimals);
        expect(amount % unit).toBe(0n);
        // amount × rate ≥ fiat, and (amount − unit) × rate < fiat; all as integers over 10^(18 + scale).
        const value = (a: bigint) => a * r.units;
        const price = f * 10n ** BigInt(r.scale);
        expect(value(amount)).toBeGreaterThanOrEqual(price);
        expect(value(amount - unit)).toBeLessThan(price);
      }),
    );
  });

  test('examples: €20.00 at 0.92455 EUR per USDT is 21.632146 USDT; an exact quotient is not rounded', () => {
    expect(tokenAmount(money('20.00'), parseRate('0.92455') as Decimal, 6)).toBe(money('21.632146'));
    expect(tokenAmount(money('10'), parseRate('0.5') as Decimal, 6)).toBe(money('20'));
    expect(tokenAmount(money('1000'), parseRate('171.94') as Decimal, 0)).toBe(money('6'));
    expect(tokenAmount(money('0.01'), parseRate('3') as Decimal, 6)).toBe(money('0.003334'));
  });

  test('refuses token decimals outside 0..18', () => {
    expect(() => tokenAmount(ONE as Money, { units: 1n, scale: 0 }, 19)).toThrow(RangeError);
  });
});

describe('parseRate and formatDecimal', () => {
  test('format then parse is the identity on canonical decimals', () => {
    fc.assert(
      fc.property(rate, (r) => {
        expect(parseRate(formatDecimal(r))).toEqual(r);
      }),
    );
  });

  test('any string is either refused or a positive decimal whose canonical text has the same value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9]{0,6}(\.[0-9]{0,20})?$/)), (s) => {
        const r = parseRate(s);
        if (!r) return;
        expect(r.units).toBeGreaterThan(0n);
        expect(Number(formatDecimal(r))).toBeCloseTo(Number(s), 6);
      }),
    );
  });

  test.each(['', '0', '0.000', '-1', '1e3', ' 1', '01.5', '1.', '.5', 'NaN', '1.0000000000000000001'])(
    'refuses %j',
    (s) => {
      expect(parseRate(s)).toBeUndefined();
    },
  );

  test('refuses what is not a string', () => {
    for (const v of [1, 0.5, null, undefined, {}, ['1']]) expect(parseRate(v)).toBeUndefined();
  });
});

describe('divide and withinSpread', () => {
  test('divide rounds half up at the scale asked for', () => {
    const d = (s: string) => parseRate(s) as Decimal;
    expect(formatDecimal(divide(d('1'), d('1.0705')))).toBe('0.934142923867');
    expect(formatDecimal(divide(d('0.84638'), d('1.0705')))).toBe('0.790639887903');
    expect(formatDecimal(divide(d('2'), d('3'), 2))).toBe('0.67');
  });

  test('withinSpread matches a reference computed on exact rationals', () => {
    fc.assert(
      fc.property(rate, rate, fc.integer({ min: 0, max: 10_000 }), (a, b, basisPoints) => {
        const percent = parseRate(formatDecimal({ units: BigInt(basisPoints), scale: 2 })) ?? {
          units: 0n,
          scale: 0,
        };
        // |a − b| / a ≤ bp / 10000, cross-multiplied over the common denominator.
        const da = a.units * 10n ** BigInt(b.scale);
        const db = b.units * 10n ** BigInt(a.scale);
        const diff = da > db ? da - db : db - da;
        expect(withinSpread(a, b, percent)).toBe(diff * 10_000n <= BigInt(basisPoints) * da);
      }),
    );
  });

  test('1 % of 0.92 is 0.0092: 0.9292 agrees, 0.9293 does not', () => {
    const d = (s: string) => parseRate(s) as Decimal;
    expect(withinSpread(d('0.92'), d('0.9292'), d('1'))).toBe(true);
    expect(withinSpread(d('0.92'), d('0.9293'), d('1'))).toBe(false);
    expect(withinSpread(d('0.92'), d('0.9108'), d('1'))).toBe(true);
  });
});
