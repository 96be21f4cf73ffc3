import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

// PAYDESK_DUST_PERCENT (contract §21): 0 to 50 with at most two decimals, what an invoice keeps in
// its numeric(4,2) `dust_percent`; anything else stops the start with a line naming the variable.

const dust = (value: string) => loadConfig({ PAYDESK_DUST_PERCENT: value }).dustPercent;

function refusal(value: string): unknown {
  try {
    dust(value);
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('PAYDESK_DUST_PERCENT', () => {
  test('defaults to 1; 0 turns dust off', () => {
    expect(loadConfig({}).dustPercent).toBe('1');
    expect(dust('0')).toBe('0');
  });

  test('every share from 0 to 50 by hundredths, written with 0, 1 or 2 decimals, is taken as written', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), fc.constantFrom(0, 1, 2), (hundredths, places) => {
        const whole = Math.floor(hundredths / 100);
        const cents = String(hundredths % 100).padStart(2, '0');
        // Fewer places only where the dropped digits are zeros: the same number.
        let written = `${whole}.${cents}`;
        if (places === 0 && cents === '00') written = String(whole);
        if (places === 1 && cents.endsWith('0')) written = `${whole}.${cents[0]}`;
        expect(dust(written)).toBe(written);
      }),
    );
  });

  test('anything else is refused, naming the variable', () => {
    const wrong = fc.oneof(
      fc
        .integer({ min: 5001, max: 10_000_000 })
        .map((h) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`),
      fc.integer({ min: 51, max: 10_000 }).map(String),
      fc
        .tuple(fc.integer({ min: 0, max: 49 }), fc.integer({ min: 0, max: 999 }))
        .map(([w, f]) => `${w}.${String(f).padStart(3, '0')}`),
      fc.constantFrom('-1', '1e1', '0x10', '01', '1.', '.5', ' 1', '1 %', 'one', '５'),
    );
    fc.assert(
      fc.property(wrong, (value) => {
        const err = refusal(value);
        expect(err).toBeInstanceOf(ConfigError);
        expect(String((err as Error).message)).toContain('PAYDESK_DUST_PERCENT');
      }),
    );
  });
});
