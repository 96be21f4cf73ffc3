import type { Selectable } from 'kysely';

export type CollectionStatus = 'pending' | 'confirmed' | 'failed';

/** One collection: the confirmed deposits of a project on a network, moved in one transaction (§16). */
export interface CollectionTable {
  id: string;
  project_id: string;
  network: string;
  /** False on a test network (contract §21): networks/livemode.ts, kept from when it was made. */
  livemode: boolean;
  /** Where its forwarders send: the payout their addresses were computed with. */
  payout_address: string;
  status: CollectionStatus;
  /** bigint, read as a string; set when the collector signs the transaction. */
  nonce: string | null;
  tx_hash: string | null;
  /** The signed transaction, sent again (never re-signed) until it is mined. */
  raw_tx: string | null;
  sent_at: Date | null;
  /** bigint, read as a string. */
  gas_used: string | null;
  block_number: string | null;
  block_hash: string | null;
  /** Why the last attempt to send did not go through; a closed set (collector.ts SEND_ERRORS). */
  last_error: string | null;
  created_at: Date;
  confirmed_at: Date | null;
  updated_at: Date;
}

declare module '../db/schema.js' {
  interface Database {
    collections: CollectionTable;
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
