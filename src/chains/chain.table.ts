import type { Generated } from 'kysely';

/** Where each network's watcher has got to: the last block fully processed, and its hash. */
export interface ChainCursorTable {
  network: string;
  /** bigint, read as a string. */
  block_number: string;
  block_hash: string;
  updated_at: Date;
  /** Since when the node has been behind the cursor (contract §21: waited for, not a reorganisation). */
  lagging_since: Generated<Date | null>;
  /** Why, in words, for /v1/health; null while the node keeps up. */
  lag_reason: Generated<string | null>;
}

/** Hashes of recently processed blocks, to find the common ancestor after a reorganisation. */
export interface ChainBlockTable {
  network: string;
  block_number: string;
  block_hash: string;
}

declare module '../db/schema.js' {
  interface Database {
    chain_cursors: ChainCursorTable;
    chain_blocks: ChainBlockTable;
  }
}
