/** Where the Solana watcher has got to in each watched token account (migration 0028). */
export interface SolanaCursorTable {
  network: string;
  /** The token account (an ATA of a merchant's wallet), base58. */
  account: string;
  /** The newest signature read (getSignaturesForAddress answers newest first, `until` it). */
  signature: string;
  /** bigint, read as a string: that transaction's slot. */
  slot: string;
  updated_at: Date;
}

declare module '../db/schema.js' {
  interface Database {
    solana_cursors: SolanaCursorTable;
  }
}
