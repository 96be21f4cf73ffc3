import { currencyDecimals, isFiat } from '../money/currencies.js';
import {
  amountText,
  formatAmount,
  formatMoney,
  MONEY_DECIMALS,
  type Money,
  moneyText,
} from '../money/money.js';
import type { RateBook } from '../rates/book.js';
import { parseRate, tokenAmount } from '../rates/decimal.js';
import type { LockedRate } from './invoice.table.js';

/**
 * How an invoice's price becomes what its payments must reach (contract §19). The lifecycle counts in
 * tokens, USDT and USDC at par with USD; a price in any other currency is turned into tokens once, at
 * creation, at a rate that stays with the invoice for its lifetime and its late window.
 *
 * One rate per invoice: the price of its first offered token in the invoice currency ("USDT/EUR"),
 * the other token at par with it, as a USD invoice takes both at par. An invoice shows one rate, and
 * every method's amount follows from it; a stablecoin off its peg shows as two sources disagreeing.
 */
export interface Priced {
  tokenAmount: Money;
  rate: LockedRate | null;
}

/** The decimals token amounts are rounded up at: what the payer is shown (at most 6, contract §15). */
export const SHOWN_TOKEN_DECIMALS = 6;

/** An invoice in USD, USDT or USDC: its token amount is its amount, and it has no rate. */
export const atPar = (amount: Money): Priced => ({ tokenAmount: amount, rate: null });

export async function priceInvoice(
  rates: RateBook,
  currency: string,
  amount: Money,
  firstToken: string,
  tokenDecimals: number,
): Promise<Priced> {
  if (!isFiat(currency)) return atPar(amount);
  const quote = await rates.lookup({ base: firstToken, quote: currency });
  const value = parseRate(quote.value);
  // The book only hands out quotes that parsed; a quote that does not is a defect, not a 503.
  if (!value) throw new Error(`rate ${quote.source} ${quote.pair} is not a positive decimal`);
  return {
    // Rounded UP at the precision shown, so the payer is never asked for less than the price.
    tokenAmount: tokenAmount(amount, value, Math.min(tokenDecimals, SHOWN_TOKEN_DECIMALS)),
    rate: {
      source: quote.source,
      pair: quote.pair,
      value: quote.value,
      fetched_at: quote.fetchedAt.toISOString(),
    },
  };
}

/**
 * What `tokens` are worth in the invoice currency at its locked rate, rounded DOWN to `decimals`:
 * `amount_paid` never shows more than was paid. At par (no rate) the tokens themselves.
 */
export function inInvoiceCurrency(tokens: Money, rate: LockedRate | null, decimals: number): Money {
  if (!rate) return tokens;
  const value = parseRate(rate.value);
  if (!value) throw new Error('a locked rate is not a positive decimal');
  const step = 10n ** BigInt(MONEY_DECIMALS - decimals);
  const exact = (tokens * value.units) / 10n ** BigInt(value.scale);
  return ((exact / step) * step) as Money;
}

/**
 * An amount in an invoice's currency, as numeric text, the way every surface writes it (the API, the
 * CSV, refunds): with the currency's decimals when the invoice is priced at a rate; at par, with the
 * amount's own digits ("10.123456" paid in a 6-decimal token keeps them).
 */
export function formatInCurrency(amount: string, currency: string, rated: boolean): string {
  return rated ? amountText(amount, currency) : moneyText(amount);
}

/**
 * `amount_paid` as the API and the page show it: at par, the tokens' own figure ("10.123456" keeps its
 * digits, as before); in a priced currency, their worth at the locked rate with the currency's decimals.
 */
export function formatPaid(tokens: Money, invoice: { currency: string; rate: LockedRate | null }): string {
  if (!invoice.rate) return formatMoney(tokens);
  const decimals = currencyDecimals(invoice.currency);
  return formatAmount(inInvoiceCurrency(tokens, invoice.rate, decimals), invoice.currency);
}
