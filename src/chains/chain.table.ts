/** Where each network's watcher has got to: the last block fully processed, and its hash. */
export interface ChainCursorTable {
  network: string;
  /** bigint, read as a string. */
  block_number: string;
  block_hash: string;
  updated_at: Date;
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
