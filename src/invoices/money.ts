/**
 * Money inside the lifecycle: decimal strings on the edges, bigint of 10^-18 units in between, so a
 * stablecoin transfer of 18 decimals adds up exactly. Never a float.
 */
export const SCALE = 18;
const ONE = 10n ** BigInt(SCALE);

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** "10.5" → 10500000000000000000n. Throws on anything that is not a plain non-negative decimal of ≤ 18 decimals. */
export function toUnits(decimal: string): bigint {
  const m = DECIMAL.exec(decimal);
  if (!m) throw new RangeError(`not a decimal amount: ${JSON.stringify(decimal)}`);
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > SCALE) throw new RangeError('more than 18 decimals');
  return BigInt(m[1] as string) * ONE + BigInt(fraction.padEnd(SCALE, '0') || '0');
}

/** 10500000000000000000n → "10.50": at least two decimals, more only where they are not zero. */
export function fromUnits(units: bigint): string {
  const whole = units / ONE;
  const fraction = (units % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** Up to 20 integer digits and 18 decimals, greater than zero: what a payment observation may carry. */
export const PAYMENT_AMOUNT = /^(0|[1-9][0-9]{0,19})(\.[0-9]{1,18})?$/;

export function isPaymentAmount(value: string): boolean {
  return PAYMENT_AMOUNT.test(value) && toUnits(value) > 0n;
}
