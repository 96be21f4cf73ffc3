import type { Selectable } from 'kysely';
import type { PaymentStatus } from './lifecycle.js';

export interface PaymentTable {
  invoice_id: string;
  tx_hash: string;
  /** numeric(38,18), read as a decimal string. */
  amount: string;
  status: PaymentStatus;
  seen_at: Date;
  confirmed_at: Date | null;
  reversed_at: Date | null;
}

export type PaymentRow = Selectable<PaymentTable>;
