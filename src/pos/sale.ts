import { currencyDecimals } from '../money/currencies.js';
import type { TillItem } from './till.table.js';

/**
 * What a sale at a till costs (docs/pos.md): item prices are before tax. Each line's tax is its
 * price × quantity × rate, rounded half-up to the currency's minor unit, line by line; the
 * subtotal is the lines' prices plus any amount typed on the keypad (which carries no tax); the
 * total is subtotal + tax. All in integer minor units: never a float.
 */
export interface SaleLine {
  name: string;
  quantity: number;
  /** price × quantity, before tax, in minor units. */
  net: bigint;
  tax: bigint;
  tax_percent: string | null;
}

export interface Sale {
  lines: SaleLine[];
  /** What was typed on the keypad, in minor units (0n when nothing). */
  custom: bigint;
  subtotal: bigint;
  tax: bigint;
  total: bigint;
}

export const MAX_QUANTITY = 999;
/** A tax rate: 0 to 100 with at most three decimals ("7.7", "8.875"). */
const TAX = /^(100(\.0{1,3})?|[1-9]?[0-9](\.[0-9]{1,3})?)$/;
const PRICE = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$/;

export const isTaxPercent = (text: string) => TAX.test(text);

/** A price typed by a person ("3", "3.5", "3.50") in minor units, or undefined when it is not one. */
export function parsePrice(text: string, currency: string): bigint | undefined {
  if (!PRICE.test(text)) return undefined;
  const decimals = currencyDecimals(currency);
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > decimals) return undefined;
  return BigInt(whole as string) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** Minor units as a decimal string with exactly the currency's decimals ("12.50", "1500"). */
export function formatMinor(value: bigint, currency: string): string {
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return value.toString();
  const unit = 10n ** BigInt(decimals);
  return `${value / unit}.${(value % unit).toString().padStart(decimals, '0')}`;
}

/** net × percent / 100, half-up to a minor unit; the percent in thousandths keeps it exact. */
export function lineTax(net: bigint, percent: string): bigint {
  const [whole, fraction = ''] = percent.split('.');
  const thousandths = BigInt(whole as string) * 1000n + BigInt(fraction.padEnd(3, '0'));
  return (net * thousandths + 50_000n) / 100_000n;
}

/** The sale of `quantities` (one per item, by position) and a keypad amount, priced by the rule above. */
export function priceSale(
  items: readonly TillItem[],
  quantities: readonly number[],
  custom: bigint,
  currency: string,
): Sale {
  const lines: SaleLine[] = [];
  items.forEach((item, i) => {
    const quantity = quantities[i] ?? 0;
    if (quantity <= 0) return;
    const net = (parsePrice(item.price, currency) ?? 0n) * BigInt(quantity);
    const tax = item.tax_percent ? lineTax(net, item.tax_percent) : 0n;
    lines.push({ name: item.name, quantity, net, tax, tax_percent: item.tax_percent });
  });
  const subtotal = lines.reduce((s, l) => s + l.net, custom);
  const tax = lines.reduce((s, l) => s + l.tax, 0n);
  return { lines, custom, subtotal, tax, total: subtotal + tax };
}
