import type { ColumnType, Selectable } from 'kysely';

/** One line of a till's price list: prices are before tax, the tax rate a percentage (or none). */
export interface TillItem {
  name: string;
  /** A decimal string in the till's currency, with at most its minor unit's decimals. */
  price: string;
  /** A decimal percentage such as "7.7"; null when the item carries no tax. */
  tax_percent: string | null;
}

export interface TillTable {
  id: string;
  project_id: string;
  name: string;
  /** scrypt, in src/users/password.ts's format: the PIN itself is never stored. */
  pin_hash: string;
  /** Signs the till's session cookies (src/pos/session.ts); never leaves the server. */
  session_key: Buffer;
  items: ColumnType<TillItem[], string, string>;
  /** The project's invoice currency when the till was made: its prices are in it. */
  currency: string;
  active: boolean;
  created_at: Date;
}

export interface TillPinFailureTable {
  scope: 'till' | 'client';
  key: string;
  failures: number;
  first_failed_at: Date;
  locked_until: Date | null;
}

export type TillRow = Selectable<TillTable>;
export type PinFailureRow = Selectable<TillPinFailureTable>;

declare module '../db/schema.js' {
  interface Database {
    tills: TillTable;
    till_pin_failures: TillPinFailureTable;
  }
}
