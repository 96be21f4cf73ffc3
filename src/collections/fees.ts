/**
 * EIP-1559 fees of a collection's transactions (contract §22), as pure arithmetic in wei.
 *
 * A first transaction offers the node's suggested tip and twice the next block's base fee plus that
 * tip (the usual wallet rule: it stays includable through six full blocks of rising base fee). A
 * replacement, signed when the first was not mined within PAYDESK_COLLECT_REPLACE_BLOCKS blocks,
 * raises both fees by at least 12.5 % (nodes replace a pending transaction of the same nonce only
 * for at least +10 %; geth's default), and at least to what the base fee now needs. Neither ever
 * offers more than the cap (PAYDESK_COLLECT_MAX_FEE_GWEI): when what is needed is above it, the
 * collection waits, and the owner is told the fee needed and the cap.
 */

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** What the chain asks now: the next block's base fee and the node's suggested tip. */
export interface Market {
  baseFee: bigint;
  tip: bigint;
}

export type Priced = { ok: true; fees: Fees } | { ok: false; needed: bigint };

/** +12.5 %, rounded up: 1/8 more. */
export const bump = (wei: bigint) => wei + (wei + 7n) / 8n;

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

function capped(needed: bigint, offered: bigint, tip: bigint, cap: bigint | undefined): Priced {
  if (cap !== undefined && needed > cap) return { ok: false, needed };
  const maxFee = cap === undefined ? offered : min(offered, cap);
  return { ok: true, fees: { maxFeePerGas: maxFee, maxPriorityFeePerGas: min(tip, maxFee) } };
}

/** The first transaction's fees; none when even the next block's base fee and the tip exceed the cap. */
export function firstFees(market: Market, cap: bigint | undefined): Priced {
  const needed = market.baseFee + market.tip;
  return capped(needed, 2n * market.baseFee + market.tip, market.tip, cap);
}

/** A replacement's fees: both at least 12.5 % above the old ones, and enough for the base fee now. */
export function replacementFees(old: Fees, market: Market, cap: bigint | undefined): Priced {
  const tip = max(bump(old.maxPriorityFeePerGas), market.tip);
  const needed = max(bump(old.maxFeePerGas), market.baseFee + tip);
  return capped(needed, max(needed, 2n * market.baseFee + tip), tip, cap);
}

/** Gwei (PAYDESK_COLLECT_MAX_FEE_GWEI, up to 9 decimals) in wei. */
export function gweiToWei(gwei: string): bigint {
  const [whole = '0', frac = ''] = gwei.split('.');
  return BigInt(whole) * 10n ** 9n + BigInt(frac.padEnd(9, '0').slice(0, 9) || '0');
}

/** Wei as gwei for people: up to 3 decimals, rounded up (a fee needed is never understated). */
export function formatGwei(wei: bigint): string {
  const milli = (wei + 999_999n) / 1_000_000n;
  const whole = milli / 1000n;
  const frac = (milli % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return `${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''}`;
}
