export interface RateQuoteTable {
  source: string;
  pair: string;
  quoted_pair: string;
  /** numeric: a decimal string, never a float (db/type-parsers.ts). */
  value: string;
  fetched_at: Date;
  as_of: Date;
}

/** The last rate that priced an invoice, per pair (migration 0019): the plausibility reference. */
export interface RateUsedTable {
  pair: string;
  value: string;
  used_at: Date;
}

declare module '../db/schema.js' {
  interface Database {
    rate_quotes: RateQuoteTable;
    rate_used: RateUsedTable;
  }
}
