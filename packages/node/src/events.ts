import type { Invoice, InvoiceStatus, Refund, RefundStatus } from './types.js';

/** The payment an `invoice.payment_detected`, `…_unaccepted` or `…_after_close` event is about. */
export interface InvoicePayment {
  tx_hash: string;
  /** The network it was made on (`tron`, `polygon`, … or `sandbox`). */
  network: string;
  /** The token it was made in: `USDT` or `USDC`. */
  currency: string;
  /** Decimal string, in the token. */
  amount: string;
  /** Final: confirmed, or (after close) buried deep enough. */
  confirmed: boolean;
}

export interface InvoiceEventData {
  /** The whole invoice as it is after the change. */
  invoice: Invoice;
  /** The status before the change; null for invoice.created. */
  previous_status: InvoiceStatus | null;
}

interface EventOf<Type extends string, Data> {
  /** evt_…, the same on every delivery attempt: use it to handle each event once. */
  id: string;
  type: Type;
  created_at: string;
  /** False for test money (the sandbox or a testnet, contract §21): fulfil orders only on `true`. */
  livemode: boolean;
  data: Data;
}

export type InvoiceCreatedEvent = EventOf<'invoice.created', InvoiceEventData>;
export type InvoicePaymentDetectedEvent = EventOf<
  'invoice.payment_detected',
  InvoiceEventData & { payment: InvoicePayment }
>;
/**
 * A known token on a watched network reached the invoice's address, but the invoice does not accept
 * it (USDC on a USDT invoice, or a network the project does not take): recorded in `payments` with
 * status `unaccepted`, never credited. Tell the customer, or return it from your wallet.
 */
export type InvoicePaymentUnacceptedEvent = EventOf<
  'invoice.payment_unaccepted',
  InvoiceEventData & { payment: InvoicePayment }
>;
/**
 * Money reached the invoice's address after it closed (paid, failed, or expired past its 24 h late
 * window), and is final: recorded in `payments` with status `after_close`, never credited to
 * `amount_paid`, the status unchanged. It is yours (collected with your other deposits) and
 * refundable: a refund may add up to `amount_paid` plus such payments. Sent once per payment.
 */
export type InvoicePaymentAfterCloseEvent = EventOf<
  'invoice.payment_after_close',
  InvoiceEventData & { payment: InvoicePayment }
>;
/** The one to fulfil an order on. */
export type InvoicePaidEvent = EventOf<'invoice.paid', InvoiceEventData>;
export type InvoiceExpiredEvent = EventOf<'invoice.expired', InvoiceEventData>;
export type InvoiceFailedEvent = EventOf<'invoice.failed', InvoiceEventData>;
export interface RefundEventData {
  /** The refund as it is after the change. */
  refund: Refund;
  previous_status: RefundStatus;
  /** The token the refund is paid in (USDT or USDC) and how much of it, a decimal string. */
  token: string;
  token_amount: string;
}

/** The payer gave an address on the claim page: send `token_amount` of `token` to `refund.address` on `refund.network`. */
export type RefundReadyEvent = EventOf<'refund.ready', RefundEventData>;
/** The refund's transfer reached the payer's address and is final; `refund.tx_hash` names it. */
export type RefundConfirmedEvent = EventOf<'refund.confirmed', RefundEventData>;
/**
 * A collection (contract §16): the confirmed deposits of a project on one EVM network, moved from their
 * forwarders to the project's payout address in one transaction.
 */
export interface Collection {
  /** col_… */
  id: string;
  project_id: string;
  network: string;
  /** False on a test network. */
  livemode: boolean;
  status: 'pending' | 'confirmed' | 'failed';
  tx_hash: string | null;
  /** How many deposits (a forwarder and a token) it moved. */
  deposits: number;
  /** What it moved, per token, as decimal strings: `{ "USDT": "120.50" }`. */
  amounts: Record<string, string>;
  gas_used: number | null;
  created_at: string;
  confirmed_at: string | null;
}

/** The funds of `collection.deposits` deposits reached the payout address (`collection.tx_hash`). */
export type CollectionConfirmedEvent = EventOf<'collection.confirmed', { collection: Collection }>;
/** A collection moved nothing; its deposits stay in their forwarders and are collected again later. */
export type CollectionFailedEvent = EventOf<'collection.failed', { collection: Collection }>;
/** Sent by the dashboard's "Send test event" button to one endpoint. */
export type WebhookTestEvent = EventOf<'webhook.test', { endpoint_id: string; message: string }>;

/** Every event Paydesk delivers; switch on `type` and TypeScript knows the shape of `data`. */
export type WebhookEvent =
  | InvoiceCreatedEvent
  | InvoicePaymentDetectedEvent
  | InvoicePaymentUnacceptedEvent
  | InvoicePaymentAfterCloseEvent
  | InvoicePaidEvent
  | InvoiceExpiredEvent
  | InvoiceFailedEvent
  | RefundReadyEvent
  | RefundConfirmedEvent
  | CollectionConfirmedEvent
  | CollectionFailedEvent
  | WebhookTestEvent;

export type WebhookEventType = WebhookEvent['type'];
