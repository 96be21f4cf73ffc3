import type { Generated, Insertable, Selectable } from 'kysely';
import type { InvoiceStatus } from './invoice.js';

export interface InvoiceTable {
  id: string;
  project_id: string;
  status: InvoiceStatus;
  /** numeric(17,2): read back as a string with exactly two decimals, never a float. */
  amount: string;
  currency: string;
  network: string;
  order_id: string | null;
  metadata: Record<string, string>;
  payment_expires_at: Date;
  paid_at: Date | null;
  tx_hash: string | null;
  pay_address: string;
  /** The child index of the project's xpub that pay_address was derived at; null on `sandbox`. */
  address_index: string | null;
  /** numeric(38,18): the sum of confirmed payments. */
  amount_paid: Generated<string>;
  paid_late: Generated<boolean>;
  failure_reason: 'underpaid' | 'payment_reversed' | null;
  awaiting_confirmation: Generated<boolean>;
  created_at: Date;
  updated_at: Date;
}

export interface InvoiceCountTable {
  project_id: string;
  status: InvoiceStatus;
  shard: number;
  n: Generated<string>;
}

export interface IdempotencyKeyTable {
  project_id: string;
  key: string;
  request_hash: string;
  invoice_id: string;
  created_at: Date;
}

export type InvoiceRow = Selectable<InvoiceTable>;
export type NewInvoiceRow = Insertable<InvoiceTable>;
