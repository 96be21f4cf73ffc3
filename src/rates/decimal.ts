import { MONEY_DECIMALS, type Money } from '../money/money.js';

/**
 * Exact decimal arithmetic for rates: a rate is `units / 10^scale`, both bigints. Never a float:
 * a binary float cannot hold 0.1, and an invoice amount derived from one can come out a unit short.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const RATE = /^(0|[1-9][0-9]{0,19})(?:\.([0-9]{1,18}))?$/;

/** A positive decimal as sources send it ("0.92340000", "171.94"); undefined for anything else. */
export function parseRate(text: unknown): Decimal | undefined {
  if (typeof text !== 'string') return undefined;
  const m = RATE.exec(text);
  if (!m) return undefined;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  const units = BigInt(`${m[1]}${fraction}`);
  return units > 0n ? { units, scale: fraction.length } : undefined;
}

/** The canonical string: no trailing zeros, no exponent ("0.9234", "172"). */
export function formatDecimal(d: Decimal): string {
  const digits = d.units.toString().padStart(d.scale + 1, '0');
  if (d.scale === 0) return digits;
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** a / b to `scale` decimals, rounded half up (a cross rate derived from two published ones). */
export function divide(a: Decimal, b: Decimal, scale = 12): Decimal {
  const numerator = a.units * 10n ** BigInt(b.scale + scale) * 2n;
  const denominator = b.units * 10n ** BigInt(a.scale);
  const doubled = numerator / denominator;
  return normalise({ units: (doubled + 1n) / 2n, scale });
}

function normalise(d: Decimal): Decimal {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return { units, scale };
}

/**
 * True when b is within `percent` of a, relative to a (the rate that would price): |a − b| × 100 ≤
 * percent × a, in integers.
 */
export function withinSpread(a: Decimal, b: Decimal, percent: Decimal): boolean {
  const scale = Math.max(a.scale, b.scale);
  const ua = a.units * 10n ** BigInt(scale - a.scale);
  const ub = b.units * 10n ** BigInt(scale - b.scale);
  const diff = ua > ub ? ua - ub : ub - ua;
  return diff * 100n * 10n ** BigInt(percent.scale) <= percent.units * ua;
}

/**
 * How much of a token an amount priced in fiat costs: `fiat / rate`, where the rate is the fiat price
 * of one token, rounded UP at the token's precision (contract §19: the payer is never asked for less
 * than the price). The result is Money (18 decimals), a whole number of the token's smallest units.
 */
export function tokenAmount(fiat: Money, rate: Decimal, tokenDecimals: number): Money {
  if (!Number.isInteger(tokenDecimals) || tokenDecimals < 0 || tokenDecimals > MONEY_DECIMALS) {
    throw new RangeError('token decimals must be an integer from 0 to 18');
  }
  // fiat is f / 10^18; the answer in token units is ceil(f × 10^scale × 10^decimals / (units × 10^18)).
  const numerator = fiat * 10n ** BigInt(rate.scale + tokenDecimals);
  const denominator = rate.units * 10n ** BigInt(MONEY_DECIMALS);
  const tokenUnits = (numerator + denominator - 1n) / denominator;
  return (tokenUnits * 10n ** BigInt(MONEY_DECIMALS - tokenDecimals)) as Money;
}
