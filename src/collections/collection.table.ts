import type { Selectable } from 'kysely';

/** What the API says (contract §16): read off the phase (collection.ts statusOf). */
export type CollectionStatus = 'pending' | 'confirmed' | 'failed';

/** Where a collection is in its life (lifecycle.ts): the one column that says it. */
export type CollectionPhase = 'queued' | 'signed' | 'mined' | 'confirmed' | 'failed';

/** One collection: the confirmed deposits of a project on a network, moved in one transaction (§16). */
export interface CollectionTable {
  id: string;
  project_id: string;
  network: string;
  /** False on a test network (contract §21): networks/livemode.ts, kept from when it was made. */
  livemode: boolean;
  /** Where its forwarders send: the payout their addresses were computed with. */
  payout_address: string;
  phase: CollectionPhase;
  /** bigint, read as a string; set when the collector signs its first transaction. */
  nonce: string | null;
  /** The account that signed (the nonce is its own). */
  signer: string | null;
  /** The latest transaction signed, or the one mined. */
  tx_hash: string | null;
  /** Transactions signed for it (collection_transactions), all with one nonce. */
  attempts: number;
  /** bigint, read as a string: the head when its latest transaction was signed. */
  signed_block: string | null;
  sent_at: Date | null;
  /** bigint, read as a string. */
  gas_used: string | null;
  block_number: string | null;
  block_hash: string | null;
  /** Why it waits; a closed set (lifecycle.ts WaitReason). */
  last_error: string | null;
  /** While waiting at the fee cap: the max fee per gas needed and the cap, wei as decimal strings. */
  fee_needed: string | null;
  fee_cap: string | null;
  created_at: Date;
  confirmed_at: Date | null;
  updated_at: Date;
}

/** One signed transaction of a collection; a replacement is another row with the same nonce. */
export interface CollectionTransactionTable {
  tx_hash: string;
  collection_id: string;
  attempt: number;
  raw_tx: string;
  created_at: Date;
}

/** Which instance leads a network's collector, and its term (a fencing token). */
export interface CollectorLeaseTable {
  network: string;
  /** bigint, read as a string. */
  term: string;
  holder: string;
  since: Date;
}

declare module '../db/schema.js' {
  interface Database {
    collections: CollectionTable;
    collection_transactions: CollectionTransactionTable;
    collector_leases: CollectorLeaseTable;
  }
}

export type CollectionRow = Selectable<CollectionTable>;

/** What a network's collector last found (collector.ts): read by the dashboard, never by the collector. */
export interface CollectorTable {
  network: string;
  address: string;
  state: CollectorState;
  /** The collector's native balance in wei, as text. */
  balance: string | null;
  checked_at: Date;
}

export type CollectorState = 'ok' | 'no_factory' | 'no_gas' | 'unreachable';

declare module '../db/schema.js' {
  interface Database {
    collectors: CollectorTable;
  }
}
