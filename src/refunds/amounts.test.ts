import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatInCurrency } from '../invoices/pricing.js';
import { formatMoney, type Money, money } from '../money/money.js';
import { overpaid, refundable, refundTokens } from './amounts.js';

const rate = (value: string) => ({
  source: 'kraken',
  pair: 'USDT/EUR',
  value,
  fetched_at: '2026-11-24T10:00:00.000Z',
});

describe('the tokens a refund is paid in', () => {
  test('at par: the amount, rounded up at the token precision', () => {
    expect(formatMoney(refundTokens(money('10.00'), null, 6))).toBe('10.00');
    expect(formatMoney(refundTokens(money('10.1234561'), null, 6))).toBe('10.123457');
    expect(formatMoney(refundTokens(money('10.1234561'), null, 18))).toBe('10.123457');
  });

  test("at the invoice's locked rate, rounded up: €20.00 at 0.934 EUR per USDT is 21.413277 USDT", () => {
    expect(formatMoney(refundTokens(money('20.00'), rate('0.934'), 6))).toBe('21.413277');
  });

  test('the payer is never owed more than the tokens are worth at the rate', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.stringMatching(/^(0|[1-9][0-9]{0,3})\.[0-9]{1,6}$/).filter((v) => Number(v) > 0),
        (cents, value) => {
          const amount = (cents * 10n ** 16n) as Money;
          const tokens = refundTokens(amount, rate(value), 6);
          const [whole, fraction = ''] = value.split('.');
          const units = BigInt(`${whole}${fraction}`);
          // tokens × rate ≥ amount, in exact integers.
          expect(tokens * units).toBeGreaterThanOrEqual(amount * 10n ** BigInt(fraction.length));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('what is left', () => {
  test('paid less refunded, the over-payment, and how they are written', () => {
    const invoice = {
      amount: '40.00',
      amount_paid: '45.25',
      amount_after_close: '0',
      amount_refunded: '5.25',
    };
    expect(formatMoney(refundable(invoice))).toBe('40.00');
    expect(formatMoney(overpaid(invoice))).toBe('5.25');
    // Money after close is refundable on top of what was paid (contract §21).
    expect(formatMoney(refundable({ ...invoice, amount_after_close: '2.50' }))).toBe('42.50');
    expect(formatInCurrency('10.123456', 'USDT', false)).toBe('10.123456');
    expect(formatInCurrency('1500.000000000000000000', 'JPY', true)).toBe('1500');
  });
});
