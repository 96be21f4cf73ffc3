import { currencyDecimals } from '../money/currencies.js';

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A decimal string written for the locale (grouping and decimal separator) with exactly its own
 * digits: Intl formats the string as an exact decimal (no binary float), and keeps as many decimals as
 * it has, so nothing is rounded. Should the result ever carry other digits, the string is shown as is.
 */
export function formatAmount(locale: string, decimal: string): string {
  const decimals = decimal.split('.')[1]?.length ?? 0;
  const key = `${locale}/${decimals}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      numberingSystem: 'latn',
    });
    numberFormats.set(key, format);
  }
  const out = format.format(decimal as Intl.StringNumericLiteral);
  return digitsOf(out) === digitsOf(decimal) ? out : decimal;
}

const priceFormats = new Map<string, Intl.NumberFormat>();

/**
 * A price in a currency as the locale writes it ("€20.00", "20,00 €", "¥1,500"), with the currency's
 * decimals as Paydesk has them (never Intl's three for the dinars: amounts have at most two).
 */
export function formatPrice(locale: string, decimal: string, currency: string): string {
  const key = `${locale}/${currency}`;
  let format = priceFormats.get(key);
  if (!format) {
    const decimals = currencyDecimals(currency);
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      numberingSystem: 'latn',
    });
    priceFormats.set(key, format);
  }
  const out = format.format(decimal as Intl.StringNumericLiteral);
  return digitsOf(out) === digitsOf(decimal) ? out : `${decimal} ${currency}`;
}

const digitsOf = (s: string) => s.replace(/[^0-9]/g, '');

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "21 Nov 2026, 10:04 UTC" in the locale's words: payers are anywhere, the server knows no time zone. */
export function formatDateTime(locale: string, d: Date): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      dateStyle: 'medium',
      timeStyle: 'short',
      hourCycle: 'h23',
      numberingSystem: 'latn',
    });
    dateFormats.set(locale, format);
  }
  return `${format.format(d)} UTC`;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Time left as mm:ss, hh:mm:ss past an hour, "2d 03:04:05" past a day (`days` writes the day part in
 * the page's language). pay.js formats the live countdown the same way (the only view logic it
 * repeats: it has to tick between polls).
 */
export function formatRemaining(ms: number, days: (n: number) => string = (n) => `${n}d`): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d > 0) return `${days(d)} ${two(h)}:${two(m)}:${two(s)}`;
  if (h > 0) return `${two(h)}:${two(m)}:${two(s)}`;
  return `${two(m)}:${two(s)}`;
}
