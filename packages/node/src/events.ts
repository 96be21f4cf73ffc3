import type { Invoice, InvoiceStatus } from './types.js';

/** A payment seen on the chain (or simulated on sandbox). */
export interface InvoicePayment {
  tx_hash: string;
  /** Decimal string. */
  amount: string;
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
  data: Data;
}

export type InvoiceCreatedEvent = EventOf<'invoice.created', InvoiceEventData>;
export type InvoicePaymentDetectedEvent = EventOf<
  'invoice.payment_detected',
  InvoiceEventData & { payment: InvoicePayment }
>;
/** The one to fulfil an order on. */
export type InvoicePaidEvent = EventOf<'invoice.paid', InvoiceEventData>;
export type InvoiceExpiredEvent = EventOf<'invoice.expired', InvoiceEventData>;
export type InvoiceFailedEvent = EventOf<'invoice.failed', InvoiceEventData>;
/** Sent by the dashboard's "Send test event" button to one endpoint. */
export type WebhookTestEvent = EventOf<'webhook.test', { endpoint_id: string; message: string }>;

/** Every event Paydesk delivers; switch on `type` and TypeScript knows the shape of `data`. */
export type WebhookEvent =
  | InvoiceCreatedEvent
  | InvoicePaymentDetectedEvent
  | InvoicePaidEvent
  | InvoiceExpiredEvent
  | InvoiceFailedEvent
  | WebhookTestEvent;

export type WebhookEventType = WebhookEvent['type'];
