import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatMoney } from '../money/money.js';
import { parsePayerAmount, parsePayerEmail, priceErrors } from './rules.js';

const open = { min: null, max: null };

describe("a payer's amount", () => {
  test.each([
    ['12.50', '12.50'],
    [' 12,5 ', '12.50'],
    ['7', '7.00'],
  ])('%j reads as %s', (text, value) => {
    expect(formatMoney(parsePayerAmount(text, 'USD', open) as never)).toBe(value);
  });

  test.each(['', '1.234', '1,234.5', '-3', '0', '1e3', '١٢', '12.5.1', 'abc'])('%j is refused', (text) => {
    expect(parsePayerAmount(text, 'USD', open)).toBeUndefined();
  });

  test('bounds are inclusive; JPY takes no decimals', () => {
    const bounds = { min: '5.00', max: '50.00' };
    expect(parsePayerAmount('5', 'USD', bounds)).toBeDefined();
    expect(parsePayerAmount('50.00', 'USD', bounds)).toBeDefined();
    expect(parsePayerAmount('4.99', 'USD', bounds)).toBeUndefined();
    expect(parsePayerAmount('50.01', 'USD', bounds)).toBeUndefined();
    expect(parsePayerAmount('100.5', 'JPY', open)).toBeUndefined();
  });

  test('any string: never throws, and what it accepts lies within the bounds', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const v = parsePayerAmount(text, 'USD', { min: '1.00', max: '10.00' });
        if (v !== undefined) expect(v >= 10n ** 18n && v <= 10n * 10n ** 18n).toBe(true);
      }),
    );
  });
});

describe("a payer's e-mail", () => {
  test('is trimmed and lower-cased', () => {
    expect(parsePayerEmail(' Ana.Lima+shop@Example.COM ')).toBe('ana.lima+shop@example.com');
  });

  test.each([
    '',
    'ana',
    'ana@',
    '@example.com',
    'ana@example',
    'a b@example.com',
    'ana@exa_mple.com',
    'ana@@x.com',
    `${'a'.repeat(250)}@x.com`,
    'ana@x.com\n',
  ])('%j is refused', (text) => {
    expect(parsePayerEmail(text.replace(/\n$/, '\u0000'))).toBeUndefined();
  });

  test('any string: never throws; what it accepts is short, lower-case, one @, no space or control', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.emailAddress()), (text) => {
        const v = parsePayerEmail(text);
        if (v === undefined) return;
        expect(v.length).toBeLessThanOrEqual(254);
        expect(v).toBe(v.toLowerCase());
        expect(v.split('@')).toHaveLength(2);
        expect([...v].some((c) => c <= ' ' || '<>"'.includes(c))).toBe(false);
      }),
    );
  });
});

describe("a link's price fields", () => {
  test('amount with a range, a range upside down, and a bad amount are each named', () => {
    expect(priceErrors({ amount: '5', max_amount: '9' }, 'USD').map((e) => e.rule)).toEqual(['exclusive']);
    expect(priceErrors({ min_amount: '9', max_amount: '5' }, 'USD').map((e) => e.rule)).toEqual(['range']);
    expect(priceErrors({ amount: '1.5' }, 'JPY')).toHaveLength(1);
    expect(priceErrors({}, 'USD')).toEqual([]);
  });
});
