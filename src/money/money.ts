/**
 * The one money type. An amount is a `Money`: an integer count of 10^-18 of the currency unit, as a
 * bigint, so a stablecoin transfer of 6 or 18 decimals adds up exactly. Decimal strings exist only on
 * the edges (the wire, PostgreSQL's numeric) and token units only at a chain's edge; every conversion
 * between the three is in this file. Never a float.
 */
import { currencyDecimals } from './currencies.js';

declare const brand: unique symbol;
export type Money = bigint & { readonly [brand]: 'Money' };

export const MONEY_DECIMALS = 18;
const ONE = 10n ** BigInt(MONEY_DECIMALS);
export const ZERO = 0n as Money;

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * A plain non-negative decimal of at most 18 places, as PostgreSQL's numeric sends it ("10.50",
 * "0.000000000000000000"). Throws on anything else: a value that reaches here was validated already.
 */
export function money(decimal: string): Money {
  const m = DECIMAL.exec(decimal);
  if (!m) throw new RangeError(`not a decimal amount: ${JSON.stringify(decimal.slice(0, 40))}`);
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > MONEY_DECIMALS) throw new RangeError('more than 18 decimals');
  return (BigInt(m[1] as string) * ONE + BigInt(fraction.padEnd(MONEY_DECIMALS, '0') || '0')) as Money;
}

/** "10.50": at least two decimals, more only where they are not zero. For the wire and the database. */
export function formatMoney(value: Money): string {
  if (value < 0n) throw new RangeError('money is never negative');
  const whole = value / ONE;
  const fraction = (value % ONE).toString().padStart(MONEY_DECIMALS, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

export function sum(values: Iterable<Money>): Money {
  let total = 0n;
  for (const v of values) total += v;
  return total as Money;
}

/** `a - b`, or zero when b is larger: what is still due never goes below nothing. */
export function remainder(a: Money, b: Money): Money {
  return (a > b ? a - b : 0n) as Money;
}

export type Parsed = { ok: true; value: Money } | { ok: false; rule: string; message: string };

/** Contract §4: up to 15 integer digits, no leading zero, optionally 1 or 2 decimals, above zero. */
const INVOICE_AMOUNT = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,2})?$/;

/**
 * An invoice amount as the merchant sends it. Never throws; the failure names the rule broken.
 * `currency` narrows the decimals to the currency's own (contract §19: JPY has none), and the message
 * says why.
 */
export function parseInvoiceAmount(input: unknown, field = 'amount', currency?: string): Parsed {
  if (typeof input !== 'string') return notAString(input, field);
  if (INVOICE_AMOUNT.test(input)) {
    if (currency !== undefined && currencyDecimals(currency) === 0 && input.includes('.')) {
      return fail(
        'decimal_places',
        `${field} is in ${currency}, which has no minor unit: send a whole number such as "1500", with no decimal point`,
      );
    }
    return positive(money(input), field);
  }
  if (/^(0|[1-9][0-9]*)\.[0-9]{3,}$/.test(input)) {
    return fail('decimal_places', `${field} may have at most 2 digits after the decimal point`);
  }
  if (/^[1-9][0-9]{15,}(\.[0-9]{1,2})?$/.test(input)) {
    return fail('max_digits', `${field} may have at most 15 digits before the decimal point`);
  }
  if (input.startsWith('-')) return fail('positive', `${field} must be greater than zero`);
  return fail(
    'format',
    `${field} must be a positive decimal string such as "10" or "10.50" (no sign, exponent, spaces or leading zeros)`,
  );
}

/** An amount in `currency` with exactly its decimals ("10.50", "1500"), rounded DOWN beyond them. */
export function formatAmount(value: Money, currency: string): string {
  if (value < 0n) throw new RangeError('money is never negative');
  const decimals = currencyDecimals(currency);
  const whole = (value / ONE).toString();
  if (decimals === 0) return whole;
  const fraction = (value % ONE).toString().padStart(MONEY_DECIMALS, '0').slice(0, decimals);
  return `${whole}.${fraction}`;
}

/** A decimal with exactly two places, as numeric(17,2) columns send it: already in both shapes below. */
const TWO_PLACES = /^(0|[1-9][0-9]*)\.[0-9]{2}$/;

/**
 * `decimal`'s whole part and its fraction without trailing zeros, when money() reads it exactly: the
 * string paths below then give what the bigint path would, with no bigint made. Undefined otherwise
 * (the bigint path reads it, or throws as money() does). The amount columns are numeric(38, 18), so
 * what the database sends usually ends in sixteen zeros ("12.500000000000000000").
 */
function exactParts(decimal: string): { whole: string; fraction: string } | undefined {
  if (!DECIMAL.test(decimal)) return undefined;
  const point = decimal.indexOf('.');
  if (point < 0) return { whole: decimal, fraction: '' };
  let end = decimal.length;
  while (end > point + 1 && decimal.charCodeAt(end - 1) === 48) end--;
  if (end - point - 1 > MONEY_DECIMALS) return undefined;
  return { whole: decimal.slice(0, point), fraction: decimal.slice(point + 1, end) };
}

/** `formatAmount(money(decimal), currency)` for a decimal string from the database, without bigints. */
export function amountText(decimal: string, currency: string): string {
  const decimals = currencyDecimals(currency);
  if (decimals === 2 && TWO_PLACES.test(decimal)) return decimal;
  const parts = exactParts(decimal);
  if (!parts) return formatAmount(money(decimal), currency);
  if (decimals === 0) return parts.whole;
  // formatAmount cuts (never rounds) to the currency's decimals.
  return `${parts.whole}.${parts.fraction.padEnd(decimals, '0').slice(0, decimals)}`;
}

/** `formatMoney(money(decimal))` for a decimal string from the database, without bigints. */
export function moneyText(decimal: string): string {
  if (TWO_PLACES.test(decimal)) return decimal;
  const parts = exactParts(decimal);
  if (!parts) return formatMoney(money(decimal));
  return `${parts.whole}.${parts.fraction.padEnd(2, '0')}`;
}

/** What one payment may carry (a chain transfer, a simulated payment): up to 20 digits and 18 decimals. */
const PAYMENT_AMOUNT = /^(0|[1-9][0-9]{0,19})(\.[0-9]{1,18})?$/;

export function parsePaymentAmount(input: unknown, field = 'amount'): Parsed {
  if (typeof input !== 'string') return notAString(input, field);
  if (PAYMENT_AMOUNT.test(input)) return positive(money(input), field);
  return fail(
    'format',
    `${field} must be a positive decimal string with at most 18 decimals, such as "10.50"`,
  );
}

function positive(value: Money, field: string): Parsed {
  return value > 0n ? { ok: true, value } : fail('positive', `${field} must be greater than zero`);
}

function notAString(input: unknown, field: string): Parsed {
  const type = input === null ? 'null' : Array.isArray(input) ? 'array' : typeof input;
  return fail('type', `${field} must be a string such as "10.50", not a JSON ${type}`);
}

function fail(rule: string, message: string): Parsed {
  return { ok: false, rule, message };
}

/*
 * A token counts in 10^-decimals units. Invoice amounts have two decimals, so for every real token
 * (6 or 18 decimals) both ways are exact; the rounding only decides the odd token with fewer decimals
 * than an amount needs, and it always favours the merchant's books being right.
 */

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new RangeError('decimals must be an integer from 0 to 255');
  }
}

/** What the payer must send: rounded UP, so a payment of these units always covers the amount. */
export function toTokenUnits(value: Money, decimals: number): bigint {
  checkDecimals(decimals);
  if (value < 0n) throw new RangeError('money is never negative');
  if (decimals >= MONEY_DECIMALS) return value * 10n ** BigInt(decimals - MONEY_DECIMALS);
  const step = 10n ** BigInt(MONEY_DECIMALS - decimals);
  return (value + step - 1n) / step;
}

/** What a transfer of `units` is worth: exact up to 18 decimals, beyond that rounded DOWN (never over-credited). */
export function fromTokenUnits(units: bigint, decimals: number): Money {
  checkDecimals(decimals);
  if (units < 0n) throw new RangeError('a transfer is never negative');
  if (decimals >= MONEY_DECIMALS) return (units / 10n ** BigInt(decimals - MONEY_DECIMALS)) as Money;
  return (units * 10n ** BigInt(MONEY_DECIMALS - decimals)) as Money;
}

/** Money as exactly `decimals` decimals (a token's, for a payer to send), rounded UP like toTokenUnits. */
export function formatUnits(value: Money, decimals: number): string {
  const units = toTokenUnits(value, decimals)
    .toString()
    .padStart(decimals + 1, '0');
  return decimals === 0 ? units : `${units.slice(0, -decimals)}.${units.slice(-decimals)}`;
}

/**
 * `formatUnits(money(decimal), decimals)` for a decimal string from the database, without bigints when
 * nothing rounds: it has no more significant places than asked (an at-par invoice's token amount, on
 * every read of its amount due), and the places are only padded or its trailing zeros cut.
 */
export function unitsText(decimal: string, decimals: number): string {
  const parts = exactParts(decimal);
  if (!parts || parts.fraction.length > decimals || !Number.isInteger(decimals) || decimals > 255)
    return formatUnits(money(decimal), decimals);
  if (decimals === 0) return parts.whole;
  return `${parts.whole}.${parts.fraction.padEnd(decimals, '0')}`;
}
