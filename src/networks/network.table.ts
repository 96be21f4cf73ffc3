/** The next unused child index of each extended public key (migration 0004). */
export interface XpubIndexTable {
  xpub: string;
  /** bigint, read as a string. */
  next_index: string;
}

declare module '../db/schema.js' {
  interface Database {
    xpub_indexes: XpubIndexTable;
  }
}
