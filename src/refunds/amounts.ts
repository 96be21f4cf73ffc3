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

/** What an invoice's refunds may add up to (contract §21): what was paid, and final money after close. */
export type RefundBase = { amount_paid: string; amount_after_close: string };

/** What is left to refund: paid and arrived after close, less refunded, never below nothing. */
export function refundable(invoice: RefundBase & { amount_refunded: string }): Money {
  const received = (money(invoice.amount_paid) + money(invoice.amount_after_close)) as Money;
  return remainder(received, money(invoice.amount_refunded));
}

/**
 * Which invoices are refunded: paid or failed ones (a pending one may still be paid), and an expired
 * one that received money after close (contract §21).
 */
export function refundableStatus(invoice: RefundBase & { status: string }): boolean {
  if (invoice.status === 'paid' || invoice.status === 'failed') return true;
  return invoice.status === 'expired' && money(invoice.amount_after_close) > 0n;
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

/**
 * What the transfer paying a ready refund carries, in the token's smallest units: what the watcher
 * matches (watch.ts) and what the batch files ask the merchant's wallet to send (safe-batch.ts).
 */
export function owedUnits(tokenAmount: string, decimals: number): bigint {
  return toTokenUnits(money(tokenAmount), decimals);
}
