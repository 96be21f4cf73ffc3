import type { Selectable } from 'kysely';

export interface XpubIndexTable {
  xpub: string;
  /** bigint, read as a string. */
  next_index: string;
}

export interface ChainCursorTable {
  network: string;
  /** bigint, read as a string. */
  block_number: string;
  block_hash: string;
  updated_at: Date;
}

export interface ChainBlockTable {
  network: string;
  block_number: string;
  block_hash: string;
}

export type ChainTransferStatus = 'seen' | 'confirmed' | 'reversed';

export interface ChainTransferTable {
  network: string;
  tx_hash: string;
  invoice_id: string;
  token: string;
  /** numeric(78,0): the token's smallest unit, read as a string. */
  units: string;
  block_number: string;
  block_hash: string;
  status: ChainTransferStatus;
}

export type ChainTransferRow = Selectable<ChainTransferTable>;
