import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { FailureReason, InvoiceStatus, PaymentStatus } from './status.js';

export interface InvoiceTable {
  id: string;
  project_id: string;
  status: InvoiceStatus;
  /** numeric(17,2), read as a decimal string (money.ts turns it into Money). */
  amount: string;
  /**
   * The invoice currency: what `amount` and `amount_paid` are in. USD, USDT or USDC (paid at par), or
   * a fiat currency priced at `rate` (contract §19).
   */
  currency: string;
  /** The rate locked when the invoice was made; null for USD and token invoices. */
  rate: ColumnType<LockedRate | null, string | null, string | null>;
  /**
   * numeric(38,18): what the invoice's payments must reach, in tokens (USDT and USDC at par with each
   * other and with USD): `amount` itself at par, else `amount` at `rate`, rounded up. The lifecycle
   * counts in it.
   */
  token_amount: string;
  /** The method's network for an invoice of one method; with several, null until a payment shows which. */
  network: string | null;
  /** Every way to pay this invoice, as offered when it was made (contract §15). */
  payment_methods: ColumnType<OfferedMethod[], string, string>;
  order_id: string | null;
  /** What the payer is paying for, shown on the payment page; null when not given. */
  description: string | null;
  metadata: Record<string, string>;
  /** Where the paid view sends the payer back to the shop (contract §12); null when not given. */
  redirect_url: string | null;
  /** Where the waiting view's "Cancel and return" goes; null when not given. */
  cancel_url: string | null;
  payment_expires_at: Date;
  paid_at: Date | null;
  tx_hash: string | null;
  /** As `network`: the address of the one method, or of the method the first payment used. */
  pay_address: string | null;
  /** The invoice's address on every EVM network, and the child index of evm_xpub it came from. */
  evm_address: string | null;
  evm_address_index: string | null;
  /** Its TRON address, and the child index of tron_xpub. */
  tron_address: string | null;
  tron_address_index: string | null;
  /** The Solana wallet its Solana methods pay (the project's when it was made), and its Solana Pay reference. */
  solana_address: ColumnType<string | null, string | null | undefined, string | null>;
  solana_reference: ColumnType<string | null, string | null | undefined, string | null>;
  /** The payout address its EVM forwarder was computed with (contract §16); null for xpub addresses. */
  payout_address: string | null;
  /** numeric(4,2): the project's tolerance when the invoice was made (contract §15). */
  underpayment_tolerance_percent: string;
  /**
   * Live or test (contract §21), decided from its methods when it was made (networks/livemode.ts) and
   * never changed: test money (the sandbox, a testnet) never reaches a live invoice.
   */
  livemode: ColumnType<boolean, boolean | undefined, boolean>;
  /** numeric(4,2): PAYDESK_DUST_PERCENT when the invoice was made (contract §21). */
  dust_percent: string;
  /** numeric(38,18): the sum of confirmed payments. */
  amount_paid: Generated<string>;
  /**
   * numeric(38,18), in the invoice currency as `amount_paid`: money after close that is final (contract
   * §21), which refunds may return on top of what was paid.
   */
  amount_after_close: Generated<string>;
  /**
   * numeric(38,18), in the invoice currency: the sum of its refunds that are not canceled (contract
   * §18), kept by src/refunds in the same transaction as each refund.
   */
  amount_refunded: Generated<string>;
  paid_late: Generated<boolean>;
  failure_reason: FailureReason | null;
  /** lifecycle.schedule(): when time next changes the invoice; the expiry worker's queue. */
  due_at: Date | null;
  /** lifecycle.schedule(): until when a payment to the invoice still counts. */
  open_until: Date | null;
  /** The payment link the payer made it on (contract §25); null for invoices made by the API. */
  payment_link_id: string | null;
  /** The payer's e-mail, lower-cased, when they gave one (a link's collect_email); at most 254 chars. */
  payer_email: string | null;
  /** The payment page language the payer used (one of src/checkout/i18n's codes), when known. */
  payer_language: string | null;
  /** The till (src/pos) the invoice was charged at; null for every other invoice. */
  till_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** An exchange rate as an invoice keeps it, and shows it (contract §19). */
export interface LockedRate {
  /** The rate source that priced the invoice (`kraken`, `coinbase`, `ecb`). */
  source: string;
  /** What the source quoted: "USDT/EUR" is the price of one USDT in euros. */
  pair: string;
  /** An exact decimal string. */
  value: string;
  /** When Paydesk received the quote, RFC 3339. */
  fetched_at: string;
}

/** A payment method as an invoice offers it. */
export interface OfferedMethod {
  network: string;
  currency: string;
  pay_address: string;
  /** The token's decimals on the network: how many `amount_due` shows (at most 6). */
  decimals: number;
}

export interface PaymentTable {
  invoice_id: string;
  tx_hash: string;
  /** The network the payment was made on (a chain source finds its payments by block without a join). */
  network: string;
  /** The token it was made in. */
  currency: string;
  /** numeric(38,18), read as a decimal string. */
  amount: string;
  status: PaymentStatus;
  seen_at: Date;
  confirmed_at: Date | null;
  reversed_at: Date | null;
  /** bigint, read as a string; null for payments that were not found on a chain (the sandbox). */
  block_number: string | null;
  block_hash: string | null;
  /** The collection that swept this payment's funds out of its forwarder; null while they are there. */
  collection_id: Generated<string | null>;
  /** When a collection last failed to move it (the token refused): automatic ones skip it for a day. */
  sweep_failed_at: Generated<Date | null>;
}

/**
 * The invoices' outbox and history: one row per change, written in the same transaction as the
 * change. The webhook workers fan deliveries out from it (src/webhooks/fan-out.ts, migration 0009).
 */
export interface EventTable {
  id: string;
  project_id: string;
  invoice_id: string | null;
  type: string;
  /** The exact JSON text every webhook attempt sends. */
  body: string;
  created_at: Date;
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

declare module '../db/schema.js' {
  interface Database {
    invoices: InvoiceTable;
    payments: PaymentTable;
    events: EventTable;
    invoice_counts: InvoiceCountTable;
    idempotency_keys: IdempotencyKeyTable;
  }
}

export type InvoiceRow = Selectable<InvoiceTable>;
export type NewInvoiceRow = Insertable<InvoiceTable>;
/** A payment as the lifecycle reads and writes it; which collection swept it is the collector's (src/collections). */
export type PaymentRow = Omit<Selectable<PaymentTable>, 'collection_id' | 'sweep_failed_at'>;
