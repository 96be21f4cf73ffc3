import type { Selectable } from 'kysely';

export const REFUND_STATUSES = ['awaiting_address', 'ready', 'sent', 'confirmed', 'canceled'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A refund of (part of) an invoice's payments (contract §18); migration 0014. */
export interface RefundTable {
  id: string;
  invoice_id: string;
  project_id: string;
  /** numeric(38,18): in the invoice currency. */
  amount: string;
  currency: string;
  /** Its invoice's livemode, copied when it was made (contract §21). */
  livemode: boolean;
  reason: string | null;
  status: RefundStatus;
  /** SHA-256 (hex) of the claim link's token; null once the link was used or the refund canceled. */
  claim_token_hash: string | null;
  /** The method the payer chose on the claim page, and the tokens the merchant must send. */
  network: string | null;
  token: string | null;
  /** numeric(38,18): `amount` in `token`, at the invoice's locked rate, rounded up at its precision. */
  token_amount: string | null;
  /** The payer's address, in its family's form (EIP-55 `0x…`, TRON `T…`). */
  address: string | null;
  /** bigint as a string: the watcher's cursor on `network` when the refund became ready. */
  after_block: string | null;
  ready_at: Date | null;
  tx_hash: string | null;
  block_number: string | null;
  confirmed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** An Idempotency-Key of a refund create, with the request it was first used for (migration 0015). */
export interface RefundIdempotencyKeyTable {
  project_id: string;
  key: string;
  request_hash: string;
  refund_id: string;
  created_at: Date;
}

declare module '../db/schema.js' {
  interface Database {
    refunds: RefundTable;
    refund_idempotency_keys: RefundIdempotencyKeyTable;
  }
}

export type RefundRow = Selectable<RefundTable>;
