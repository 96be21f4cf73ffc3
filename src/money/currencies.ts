/**
 * The currencies an invoice can be priced in (contract §15, §19) and how many decimals an amount in
 * each may have. USD and the two tokens need no rate (USD is paid at par); every other currency is an
 * ISO 4217 code, priced through a rate source (src/rates).
 */

/** Paid at par in USDT or USDC, or in the token itself: no exchange rate. */
export const PAR_CURRENCIES = ['USD', 'USDT', 'USDC'] as const;

/**
 * Active ISO 4217 currency codes (the ISO 4217 maintenance agency's list one, without funds codes,
 * precious metals and the test and no-currency codes), less USD, which is priced at par.
 */
export const FIAT_CURRENCIES: readonly string[] = `
AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF
CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ
GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP
LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR
PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC
SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR
ZMW ZWG`
  .trim()
  .split(/\s+/);

const FIAT = new Set(FIAT_CURRENCIES);

/** ISO 4217 minor unit 0: an amount in these is a whole number ("1500" yen). */
const NO_MINOR_UNIT = new Set('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));

export const isFiat = (code: string) => FIAT.has(code);

/**
 * How many decimals an invoice amount in `currency` has: ISO 4217's minor unit, never more than the
 * specification's two (the dinars' three become two; contract §19).
 */
export function currencyDecimals(currency: string): number {
  return NO_MINOR_UNIT.has(currency) ? 0 : 2;
}
