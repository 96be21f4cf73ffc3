import { newId } from '../ids.js';

export const EVENT_TYPES = [
  'invoice.created',
  'invoice.payment_detected',
  'invoice.payment_unaccepted',
  // Money reached a closed invoice (contract §21): recorded, never credited, refundable.
  'invoice.payment_after_close',
  'invoice.paid',
  'invoice.expired',
  'invoice.failed',
  // A project's collections (contract §16): not about one invoice, so their events name none.
  'collection.confirmed',
  'collection.failed',
  // Refunds (contract §18): the payer gave an address; the refund's transfer is final.
  'refund.ready',
  'refund.confirmed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * A change to an invoice, as recorded in the `events` table in the same transaction as the change:
 * the invoice's history, and the outbox its webhooks are delivered from.
 */
export interface InvoiceEvent {
  id: string;
  projectId: string;
  invoiceId: string;
  type: EventType;
  /** The exact JSON text every webhook attempt sends: `{ id, type, created_at, livemode, data }` (contract §10, §21). */
  body: string;
  createdAt: Date;
}

export function newEvent(
  projectId: string,
  invoiceId: string,
  type: EventType,
  data: Record<string, unknown>,
  createdAt: Date,
  livemode: boolean,
): InvoiceEvent {
  const id = newId('evt');
  const body = eventBody({ id, type, createdAt, livemode, data });
  return { id, projectId, invoiceId, type, body, createdAt };
}

/**
 * The one shape of every event body, invoices', refunds', collections' and test events alike:
 * `{ id, type, created_at, livemode, data }`. `livemode` is the object's own (contract §21), so a
 * receiver can drop test events before it reads `data`, as with Stripe's.
 */
export function eventBody(e: {
  id: string;
  type: string;
  createdAt: Date;
  livemode: boolean;
  data: Record<string, unknown>;
}): string {
  return JSON.stringify({
    id: e.id,
    type: e.type,
    created_at: e.createdAt.toISOString(),
    livemode: e.livemode,
    data: e.data,
  });
}
