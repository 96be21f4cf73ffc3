import { SCALE } from '../invoices/money.js';

/*
 * Paydesk counts money in 10^-18 units (invoices/money.ts); a token counts in 10^-decimals units.
 * Invoice amounts have two decimals, so for every real token (6 or 18 decimals) both ways are exact;
 * the rounding below only decides the odd token with fewer decimals than an amount needs.
 */

function check(amount: bigint, decimals: number): void {
  if (amount < 0n) throw new RangeError('amount must not be negative');
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new RangeError('decimals must be an integer from 0 to 255');
  }
}

/** What the payer must send: rounded UP, so a payment of these units always covers the amount. */
export function toTokenUnits(amount18: bigint, decimals: number): bigint {
  check(amount18, decimals);
  if (decimals >= SCALE) return amount18 * 10n ** BigInt(decimals - SCALE);
  const step = 10n ** BigInt(SCALE - decimals);
  return (amount18 + step - 1n) / step;
}

/**
 * What a transfer of `units` is worth in 10^-18 units: exact up to 18 decimals; beyond that rounded
 * DOWN, so a payer is never credited with more than they sent.
 */
export function fromTokenUnits(units: bigint, decimals: number): bigint {
  check(units, decimals);
  if (decimals >= SCALE) return units / 10n ** BigInt(decimals - SCALE);
  return units * 10n ** BigInt(SCALE - decimals);
}
