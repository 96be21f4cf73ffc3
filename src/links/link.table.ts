import type { Selectable } from 'kysely';

/** A payment link (contract §25); migration 0025. */
export interface PaymentLinkTable {
  id: string;
  project_id: string;
  title: string;
  description: string | null;
  /** numeric(17,2): the fixed price; null when the payer chooses within min_amount/max_amount. */
  amount: string | null;
  min_amount: string | null;
  max_amount: string | null;
  currency: string;
  redirect_url: string | null;
  collect_email: boolean;
  max_uses: number | null;
  /** Invoices made from it: raised only by claimUse, in the transaction that inserts the invoice. */
  uses: number;
  expires_at: Date | null;
  active: boolean;
  /** 32 random bytes: the key of the page's form tokens (token.ts); never leaves the server. */
  form_secret: Buffer;
  created_at: Date;
  updated_at: Date;
}

declare module '../db/schema.js' {
  interface Database {
    payment_links: PaymentLinkTable;
  }
}

export type PaymentLinkRow = Selectable<PaymentLinkTable>;
