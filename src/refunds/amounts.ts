import type { LockedRate } from '../invoices/invoice.table.js';
import { type Money, money, remainder, toTokenUnits } from '../money/money.js';
import { parseRate, tokenAmount } from '../rates/decimal.js';

/**
 * Refund amounts (contract §18). A refund is asked for in the invoice currency, as the invoice's
 * `amount_paid` is shown; the tokens the merchant sends follow from it at the invoice's locked rate
 * (contract §19) or at par, rounded UP at the token's precision: the payer always gets at least the
 * refund, never a unit less.
 */

/** The decimals a token amount is rounded up at: the token's, at most 6 (what wallets and the page show). */
export const REFUND_TOKEN_DECIMALS = 6;

/** What is left to refund: paid less refunded, never below nothing. */
export function refundable(invoice: { amount_paid: string; amount_refunded: string }): Money {
  return remainder(money(invoice.amount_paid), money(invoice.amount_refunded));
}

/** What was paid above the invoice's amount: the over-payment a merchant may refund on its own. */
export function overpaid(invoice: { amount: string; amount_paid: string }): Money {
  return remainder(money(invoice.amount_paid), money(invoice.amount));
}

/** The tokens that pay `amount` (in the invoice currency), rounded up at min(decimals, 6). */
export function refundTokens(amount: Money, rate: LockedRate | null, decimals: number): Money {
  const precision = Math.min(decimals, REFUND_TOKEN_DECIMALS);
  if (!rate) {
    const step = 10n ** BigInt(18 - precision);
    return (toTokenUnits(amount, precision) * step) as Money;
  }
  const value = parseRate(rate.value);
  if (!value) throw new Error('a locked rate is not a positive decimal');
  return tokenAmount(amount, value, precision);
}
