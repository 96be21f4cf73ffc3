import type { Selectable } from 'kysely';

/** A signed transfer Paydesk accepted for an invoice and submitted with its relayer (contract §23). */
export interface GaslessAuthorizationTable {
  network: string;
  /** The token contract, lower-case `0x` hex (as chain logs name it). */
  token: string;
  /** The payer who signed, lower-case `0x` hex. */
  authorizer: string;
  /** The EIP-3009 nonce, `0x` and 64 lower-case hex digits. */
  nonce: string;
  invoice_id: string;
  /** The payout address it pays, lower-case `0x` hex. */
  payee: string;
  /** Atomic token units, read as a string. */
  value: string;
  valid_before: Date;
  source: 'page' | 'x402';
  /** The relayer's transaction; null until it is sent. Someone else's transaction may mine it first. */
  tx_hash: string | null;
  created_at: Date;
}

export type GaslessAuthorizationRow = Selectable<GaslessAuthorizationTable>;

declare module '../db/schema.js' {
  interface Database {
    gasless_authorizations: GaslessAuthorizationTable;
  }
}
