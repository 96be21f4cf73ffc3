export interface RateQuoteTable {
  source: string;
  pair: string;
  quoted_pair: string;
  /** numeric: a decimal string, never a float (db/type-parsers.ts). */
  value: string;
  fetched_at: Date;
  as_of: Date;
}

declare module '../db/schema.js' {
  interface Database {
    rate_quotes: RateQuoteTable;
  }
}
