import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toUnits } from '../invoices/money.js';
import { fromTokenUnits, toTokenUnits } from './units.js';

const amount18 = fc.bigInt({ min: 0n, max: 10n ** 36n });
const decimals = fc.integer({ min: 0, max: 40 });

describe('toTokenUnits / fromTokenUnits', () => {
  test('an invoice amount in USDT of 6 and 18 decimals', () => {
    expect(toTokenUnits(toUnits('10.50'), 6)).toBe(10_500_000n);
    expect(toTokenUnits(toUnits('10.50'), 18)).toBe(10_500_000_000_000_000_000n);
    expect(fromTokenUnits(10_500_000n, 6)).toBe(toUnits('10.50'));
    expect(toTokenUnits(toUnits('0.01'), 2)).toBe(1n);
    expect(toTokenUnits(toUnits('0.01'), 0)).toBe(1n);
  });

  test('rounds up: the units asked for are always worth at least the amount, by less than one unit', () => {
    fc.assert(
      fc.property(amount18, decimals, (amount, d) => {
        const units = toTokenUnits(amount, d);
        if (d >= 18) {
          expect(units).toBe(amount * 10n ** BigInt(d - 18));
        } else {
          const step = 10n ** BigInt(18 - d);
          expect(units * step >= amount).toBe(true);
          expect(units * step - amount < step).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('two-decimal amounts are exact both ways for every token of 2 or more decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 17n }), fc.integer({ min: 2, max: 40 }), (cents, d) => {
        const amount = cents * 10n ** 16n;
        expect(fromTokenUnits(toTokenUnits(amount, d), d)).toBe(amount);
      }),
      { numRuns: 2000 },
    );
  });

  test('a payment is credited at most what was sent: fromTokenUnits rounds down past 18 decimals', () => {
    fc.assert(
      fc.property(amount18, decimals, (units, d) => {
        const credited = fromTokenUnits(units, d);
        if (d <= 18) expect(credited).toBe(units * 10n ** BigInt(18 - d));
        else expect(credited * 10n ** BigInt(d - 18) <= units).toBe(true);
        expect(toTokenUnits(credited, d) <= units).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('refuses negative amounts and impossible decimals', () => {
    expect(() => toTokenUnits(-1n, 6)).toThrow(RangeError);
    expect(() => fromTokenUnits(-1n, 6)).toThrow(RangeError);
    for (const d of [-1, 1.5, 256, Number.NaN]) expect(() => toTokenUnits(1n, d)).toThrow(RangeError);
  });
});
