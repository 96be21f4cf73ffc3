import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseItems } from './items.js';
import { admit, PIN_LOCKOUT } from './lockout.js';
import { formatMinor, isTaxPercent, lineTax, parsePrice, priceSale } from './sale.js';

describe('prices and tax', () => {
  test('a price typed by a person: exactly its minor units, or nothing', () => {
    expect(parsePrice('3', 'USD')).toBe(300n);
    expect(parsePrice('3.5', 'USD')).toBe(350n);
    expect(parsePrice('1500', 'JPY')).toBe(1500n);
    for (const bad of ['', '03', '1.234', '-1', '1e3', ' 1', '1.', '.5', '1,50'])
      expect(parsePrice(bad, 'USD')).toBeUndefined();
    expect(parsePrice('15.5', 'JPY')).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), (s) => {
        const p = parsePrice(s, 'USD');
        if (p !== undefined) expect(formatMinor(p, 'USD')).toBe(Number(s).toFixed(2));
      }),
    );
  });

  test('tax per line is half-up to the minor unit, from exact thousandths of a percent', () => {
    expect(lineTax(750n, '7.7')).toBe(58n); // 0.5775 → 0.58
    expect(lineTax(10n, '5')).toBe(1n); // 0.005 → 0.01
    expect(lineTax(10n, '4.999')).toBe(0n); // 0.0049990 → 0.00
    expect(lineTax(1999n, '100')).toBe(1999n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 14n }),
        fc.integer({ min: 0, max: 100_000 }),
        (net, milli) => {
          const percent = `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
          const exact = net * BigInt(milli); // tax × 100 000
          const tax = lineTax(net, percent);
          // Within half a minor unit, ties rounded up.
          expect(tax * 100_000n - exact).toBeLessThanOrEqual(50_000n);
          expect(exact - tax * 100_000n).toBeLessThan(50_000n);
        },
      ),
    );
  });

  test('subtotal, tax and total of a cart', () => {
    const items = parseItems('Espresso; 2.50; 7.7\nCroissant; 3.10; 19\nWater; 1', 'USD').items;
    const sale = priceSale(items, [3, 1, 2], 435n, 'USD');
    expect([sale.subtotal, sale.tax, sale.total]).toEqual([1695n, 117n, 1812n]);
    expect(isTaxPercent('100.001')).toBe(false);
  });
});

describe('the price list', () => {
  test('one item a line; every bad line named, nothing kept', () => {
    const ok = parseItems(' Tea ; 2.5 ; 7.7 \n\nCake; 3', 'USD');
    expect(ok).toEqual({
      items: [
        { name: 'Tea', price: '2.50', tax_percent: '7.7' },
        { name: 'Cake', price: '3.00', tax_percent: null },
      ],
      errors: [],
    });
    const bad = parseItems('Tea\nCake; 0\nBun; 2; 7%\nA;1;2;3', 'USD').errors.map((e) => e.rule);
    expect(bad).toEqual(['format', 'price', 'tax_percent', 'format']);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const { items, errors } = parseItems(text, 'USD');
        for (const i of items) expect(parsePrice(i.price, 'USD')).toBeGreaterThan(0n);
        expect(Array.isArray(errors)).toBe(true);
      }),
    );
  });
});

describe('PIN lockout', () => {
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 9, minutes));
  test('the fifth attempt in 15 minutes locks for 15 minutes; a new window starts afresh', () => {
    let row: ReturnType<typeof admit> | undefined;
    let counter: Parameters<typeof admit>[0];
    for (let i = 0; i < 5; i++) {
      row = admit(counter, at(i), PIN_LOCKOUT);
      if (!row.allowed) throw new Error('refused early');
      counter = row.row;
    }
    expect(row).toMatchObject({ allowed: true, remaining: 0 });
    expect(admit(counter, at(18), PIN_LOCKOUT)).toEqual({ allowed: false, until: at(19) });
    expect(admit(counter, at(19), PIN_LOCKOUT)).toMatchObject({ allowed: true, remaining: 4 });
    const old = { failures: 4, first_failed_at: at(0), locked_until: null };
    expect(admit(old, at(15), PIN_LOCKOUT)).toMatchObject({ allowed: true, remaining: 4 });
    expect(admit(old, at(14), PIN_LOCKOUT)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
