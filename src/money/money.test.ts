import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  amountText,
  formatAmount,
  formatMoney,
  formatUnits,
  fromTokenUnits,
  type Money,
  money,
  moneyText,
  parseInvoiceAmount,
  parsePaymentAmount,
  remainder,
  sum,
  toTokenUnits,
  unitsText,
} from './money.js';

/** The contract's grammar (§4), restated here so the parser is checked against the text, not itself. */
const GRAMMAR = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;

const digit = fc.constantFrom(...'0123456789');
const digits = (min: number, max: number) =>
  fc.array(digit, { minLength: min, maxLength: max }).map((d) => d.join(''));
const wholePart = (maxDigits: number) =>
  fc.oneof(
    fc.constant('0'),
    fc.tuple(fc.constantFrom(...'123456789'), digits(0, maxDigits - 1)).map(([h, t]) => h + t),
  );

/** Every string of the grammar: 0 or 1 to 15 digits without a leading zero, then 0 to 2 decimals. */
const grammarString = fc
  .tuple(wholePart(15), fc.option(digits(1, 2), { nil: undefined }))
  .map(([whole, decimals]) => (decimals === undefined ? whole : `${whole}.${decimals}`));

/** Strings that look like amounts and break one rule or another: the interesting neighbourhood. */
const nearMiss = fc
  .array(fc.constantFrom(...'0123456789.-+eE ,_'), { minLength: 0, maxLength: 20 })
  .map((c) => c.join(''));

const anyInput = fc.oneof(
  fc.anything(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  nearMiss,
  grammarString,
);

/** Any amount Paydesk can hold: up to 38 digits, 18 of them decimals. */
const anyMoney = fc.bigInt({ min: 0n, max: 10n ** 38n - 1n }).map((v) => v as Money);
const tokenDecimals = fc.integer({ min: 0, max: 40 });

const isZero = (s: string) => /^[0.]+$/.test(s);
const m = (decimal: string) => money(decimal);

describe('decimal strings', () => {
  test('format then parse is the identity for every amount', () => {
    fc.assert(
      fc.property(anyMoney, (v) => {
        expect(money(formatMoney(v))).toBe(v);
      }),
      { numRuns: 3000 },
    );
  });

  test('format writes at least two decimals and no trailing zero beyond them', () => {
    fc.assert(
      fc.property(anyMoney, (v) => {
        expect(formatMoney(v)).toMatch(/^(0|[1-9][0-9]*)\.([0-9]{2}|[0-9]{3,18}(?<!0))$/);
      }),
      { numRuns: 3000 },
    );
    expect(formatMoney(m('10'))).toBe('10.00');
    expect(formatMoney(m('0.000000000000000000'))).toBe('0.00');
    expect(formatMoney(m('0.400000000000000001'))).toBe('0.400000000000000001');
  });

  test('parse reads what PostgreSQL sends: any padding of zeros gives the same amount', () => {
    fc.assert(
      fc.property(anyMoney, fc.integer({ min: 0, max: 10 }), (v, pad) => {
        const text = formatMoney(v);
        const padded = text.length - text.indexOf('.') - 1 + pad <= 18 ? text + '0'.repeat(pad) : text;
        expect(money(padded)).toBe(v);
      }),
    );
  });

  test('refuses what is not a plain decimal of at most 18 places', () => {
    for (const bad of ['', '-1', '1e3', '01', '.5', '1.', ' 1', '0.0000000000000000001', 'NaN']) {
      expect(() => money(bad)).toThrow(RangeError);
    }
  });

  test('sum and remainder are exact and never negative', () => {
    fc.assert(
      fc.property(fc.array(anyMoney, { maxLength: 10 }), anyMoney, (values, b) => {
        const total = sum(values);
        expect(total).toBe(values.reduce((s, v) => s + v, 0n));
        const left = remainder(total, b);
        expect(left).toBe(total > b ? total - b : 0n);
        expect(left >= 0n).toBe(true);
      }),
    );
  });
});

describe('parseInvoiceAmount', () => {
  test('accepts exactly the strings of the grammar whose value is above zero', () => {
    fc.assert(
      fc.property(fc.oneof(grammarString, nearMiss, fc.string(), fc.string({ unit: 'grapheme' })), (s) => {
        expect(parseInvoiceAmount(s).ok).toBe(GRAMMAR.test(s) && !isZero(s));
      }),
      { numRuns: 3000 },
    );
  });

  test('its value, formatted, is the amount normalised to two decimals', () => {
    fc.assert(
      fc.property(grammarString, (s) => {
        fc.pre(!isZero(s));
        const r = parseInvoiceAmount(s);
        if (!r.ok) throw new Error(`rejected ${s}`);
        const [whole, decimals = ''] = s.split('.');
        expect(formatMoney(r.value)).toBe(`${whole}.${decimals.padEnd(2, '0')}`);
      }),
      { numRuns: 3000 },
    );
  });

  test('keeps the largest amounts exact, far past what a float holds', () => {
    const r = parseInvoiceAmount('999999999999999.99');
    expect(r.ok && formatMoney(r.value)).toBe('999999999999999.99');
  });

  test('never throws, whatever it is given, and every failure names a rule and the field', () => {
    fc.assert(
      fc.property(anyInput, (v) => {
        const r = parseInvoiceAmount(v, 'price');
        if (!r.ok) {
          expect(r.rule).toMatch(/^[a-z_]+$/);
          expect(r.message).toContain('price');
        }
      }),
      { numRuns: 3000 },
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
    ['surrounding spaces', ' 10 ', 'format'],
    ['a trailing newline', '10\n', 'format'],
    ['a leading zero', '01', 'format'],
    ['a leading zero with decimals', '00.50', 'format'],
    ['a bare trailing point', '1.', 'format'],
    ['a bare leading point', '.5', 'format'],
    ['a decimal comma', '1,50', 'format'],
    ['non-ASCII digits', '١٠', 'format'],
    ['full-width digits', '１０', 'format'],
    ['three decimals', '1.234', 'decimal_places'],
    ['16 integer digits', '1234567890123456', 'max_digits'],
    ['zero', '0', 'positive'],
    ['zero with decimals', '0.00', 'positive'],
    ['NaN', 'NaN', 'format'],
    ['hexadecimal', '0x10', 'format'],
  ])('rejects %s', (_name, input, rule) => {
    expect(parseInvoiceAmount(input)).toMatchObject({ ok: false, rule });
  });
});

describe('parsePaymentAmount', () => {
  const paymentString = fc
    .tuple(wholePart(20), fc.option(digits(1, 18), { nil: undefined }))
    .map(([w, d]) => (d === undefined ? w : `${w}.${d}`));

  test('accepts positive decimals of up to 20 digits and 18 decimals, and reads them exactly', () => {
    fc.assert(
      fc.property(fc.oneof(paymentString, nearMiss, fc.string()), (s) => {
        const r = parsePaymentAmount(s);
        const valid = /^(0|[1-9][0-9]{0,19})(\.[0-9]{1,18})?$/.test(s) && !isZero(s);
        expect(r.ok).toBe(valid);
        if (r.ok) expect(r.value).toBe(money(s));
      }),
      { numRuns: 3000 },
    );
  });

  test('never throws', () => {
    fc.assert(fc.property(anyInput, (v) => void parsePaymentAmount(v)));
  });
});

describe('token units', () => {
  test('an invoice amount in USDT of 6 and of 18 decimals', () => {
    expect(toTokenUnits(m('10.50'), 6)).toBe(10_500_000n);
    expect(toTokenUnits(m('10.50'), 18)).toBe(10_500_000_000_000_000_000n);
    expect(fromTokenUnits(10_500_000n, 6)).toBe(m('10.50'));
    expect(toTokenUnits(m('0.01'), 2)).toBe(1n);
    expect(toTokenUnits(m('0.01'), 0)).toBe(1n);
  });

  test('rounds up: the units asked for are worth at least the amount, by less than one unit', () => {
    fc.assert(
      fc.property(anyMoney, tokenDecimals, (v, d) => {
        const units = toTokenUnits(v, d);
        const worth = fromTokenUnits(units, d);
        if (d <= 18) {
          expect(worth >= v).toBe(true);
          expect(worth - v < 10n ** BigInt(18 - d)).toBe(true);
        } else {
          expect(units).toBe(v * 10n ** BigInt(d - 18));
          expect(worth).toBe(v);
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('two-decimal amounts are exact both ways for every token of 2 or more decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 17n }), fc.integer({ min: 2, max: 40 }), (cents, d) => {
        const v = (cents * 10n ** 16n) as Money;
        expect(fromTokenUnits(toTokenUnits(v, d), d)).toBe(v);
      }),
      { numRuns: 3000 },
    );
  });

  test('a payment is credited at most what was sent: reading units rounds down past 18 decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), tokenDecimals, (units, d) => {
        const credited = fromTokenUnits(units, d);
        if (d <= 18) expect(credited).toBe(units * 10n ** BigInt(18 - d));
        else expect(credited * 10n ** BigInt(d - 18) <= units).toBe(true);
        expect(toTokenUnits(credited, d) <= units).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test('decimal string to token units and back is exact for amounts the token can express', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (units, d) => {
        const text = formatMoney(fromTokenUnits(units, d));
        expect(toTokenUnits(money(text), d)).toBe(units);
      }),
      { numRuns: 3000 },
    );
  });

  test('refuses negative amounts and impossible decimals', () => {
    expect(() => toTokenUnits(-1n as Money, 6)).toThrow(RangeError);
    expect(() => fromTokenUnits(-1n, 6)).toThrow(RangeError);
    for (const d of [-1, 1.5, 256, Number.NaN])
      expect(() => toTokenUnits(1n as Money, d)).toThrow(RangeError);
  });
});

/**
 * Any decimal money() reads, as the database may send it: 0 to 18 places, then often trailing zeros up
 * to numeric(38, 18)'s eighteen ("12.500000000000000000").
 */
const decimalText = (max: bigint) =>
  fc
    .tuple(fc.bigInt({ min: 0n, max }), fc.integer({ min: 0, max: 18 }), fc.integer({ min: 0, max: 18 }))
    .map(([units, places, zeros]) => {
      const digits = units.toString().padStart(places + 1, '0');
      const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
      const padded = Math.min(18, places + zeros);
      if (padded === places) return text;
      return `${text}${places === 0 ? '.' : ''}${'0'.repeat(padded - places)}`;
    });

describe('amountText, moneyText and unitsText (the read path without bigints)', () => {
  test('agree with formatAmount(money(x)) and formatMoney(money(x)) for any decimal', () => {
    const decimal = decimalText(10n ** 17n);
    fc.assert(
      fc.property(decimal, fc.constantFrom('USD', 'EUR', 'JPY', 'USDT'), (x, currency) => {
        expect(amountText(x, currency)).toBe(formatAmount(money(x), currency));
        expect(moneyText(x)).toBe(formatMoney(money(x)));
      }),
    );
  });

  test('unitsText agrees with formatUnits(money(x)) for any decimal and any token decimals', () => {
    const decimal = decimalText(10n ** 20n);
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 18 }), (x, decimals) => {
        expect(unitsText(x, decimals)).toBe(formatUnits(money(x), decimals));
      }),
      { numRuns: 2000 },
    );
    expect(unitsText('12.50', 6)).toBe('12.500000');
    expect(unitsText('12.500000000000000000', 6)).toBe('12.500000');
    expect(unitsText('0.000001', 2)).toBe('0.01');
    expect(moneyText('0.000000000000000000')).toBe('0.00');
    expect(amountText('1250.500000000000000000', 'JPY')).toBe('1250');
  });

  test('what money() refuses is refused alike', () => {
    for (const bad of ['1.0000000000000000001', '01.5', '-1.00', '1e3', '']) {
      expect(() => moneyText(bad)).toThrow(RangeError);
      expect(() => amountText(bad, 'USD')).toThrow(RangeError);
      expect(() => unitsText(bad, 6)).toThrow(RangeError);
    }
    expect(() => unitsText('1.5', 1.5)).toThrow(RangeError);
  });
});
