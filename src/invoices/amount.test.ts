import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseAmount } from './amount.js';

/** The contract's grammar (§4), restated here so the parser is checked against the text, not itself. */
const GRAMMAR = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;

const digit = fc.constantFrom(...'0123456789');
const digits = (min: number, max: number) =>
  fc.array(digit, { minLength: min, maxLength: max }).map((d) => d.join(''));

/** Every string of the grammar: 0 or 1 to 15 digits without a leading zero, then 0 to 2 decimals. */
const grammarString = fc
  .tuple(
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.constantFrom(...'123456789'), digits(0, 14)).map(([h, t]) => h + t),
    ),
    fc.option(digits(1, 2), { nil: undefined }),
  )
  .map(([whole, decimals]) => (decimals === undefined ? whole : `${whole}.${decimals}`));

/** Strings that look like amounts and break one rule or another: the interesting neighbourhood. */
const nearMiss = fc
  .array(fc.constantFrom(...'0123456789.-+eE ,_'), { minLength: 0, maxLength: 20 })
  .map((c) => c.join(''));

const isZero = (s: string) => /^[0.]+$/.test(s);

describe('parseAmount', () => {
  test('accepts exactly the strings of the grammar whose value is above zero', () => {
    fc.assert(
      fc.property(fc.oneof(grammarString, nearMiss, fc.string(), fc.string({ unit: 'grapheme' })), (s) => {
        expect(parseAmount(s).ok).toBe(GRAMMAR.test(s) && !isZero(s));
      }),
      { numRuns: 2000 },
    );
  });

  test('normalises to two decimals and gives the exact minor units as a bigint', () => {
    fc.assert(
      fc.property(grammarString, (s) => {
        fc.pre(!isZero(s));
        const r = parseAmount(s);
        if (!r.ok) throw new Error(`rejected ${s}`);
        expect(r.value).toMatch(/^(0|[1-9][0-9]{0,14})\.[0-9]{2}$/);
        const [whole, decimals = ''] = s.split('.');
        expect(r.value).toBe(`${whole}.${decimals.padEnd(2, '0')}`);
        expect(typeof r.minor).toBe('bigint');
        expect(r.minor).toBe(BigInt(r.value.replace('.', '')));
        expect(r.minor > 0n).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  test('keeps the largest amounts exact, far past what a float holds', () => {
    expect(parseAmount('999999999999999.99')).toEqual({
      ok: true,
      value: '999999999999999.99',
      minor: 99999999999999999n,
    });
    expect(parseAmount('0.01')).toEqual({ ok: true, value: '0.01', minor: 1n });
  });

  test('never throws, whatever it is given', () => {
    const anyInput = fc.oneof(
      fc.anything(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary-ascii' }),
    );
    fc.assert(
      fc.property(anyInput, (v) => {
        const r = parseAmount(v);
        if (!r.ok) {
          expect(r.rule).toMatch(/^[a-z_]+$/);
          expect(r.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['a JSON number', 10, 'type'],
    ['null', null, 'type'],
    ['an object', { amount: '10' }, 'type'],
    ['an exponent', '1e3', 'format'],
    ['a plus sign', '+10', 'format'],
    ['a minus sign', '-10', 'positive'],
    ['a blank string', '', 'format'],
    ['spaces only', '   ', 'format'],
    ['surrounding spaces', ' 10 ', 'format'],
    ['a trailing newline', '10\n', 'format'],
    ['a leading zero', '01', 'format'],
    ['a leading zero with decimals', '00.50', 'format'],
    ['a bare trailing point', '1.', 'format'],
    ['a bare leading point', '.5', 'format'],
    ['a decimal comma', '1,50', 'format'],
    ['a thousands separator', '1,000.00', 'format'],
    ['non-ASCII digits', '١٠', 'format'],
    ['full-width digits', '１０', 'format'],
    ['three decimals', '1.234', 'decimal_places'],
    ['16 integer digits', '1234567890123456', 'max_digits'],
    ['16 integer digits with decimals', '1234567890123456.00', 'max_digits'],
    ['zero', '0', 'positive'],
    ['zero with decimals', '0.00', 'positive'],
    ['NaN', 'NaN', 'format'],
    ['Infinity', 'Infinity', 'format'],
    ['hexadecimal', '0x10', 'format'],
  ])('rejects %s', (_name, input, rule) => {
    const r = parseAmount(input);
    expect(r).toMatchObject({ ok: false, rule });
    if (!r.ok) expect(r.message).toContain('amount');
  });

  test('names the field it was given in its messages', () => {
    expect(parseAmount('1.234', 'price')).toMatchObject({
      ok: false,
      message: expect.stringContaining('price'),
    });
  });
});
