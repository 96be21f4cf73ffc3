/**
 * Every event type the outbox carries, the one list (contract §10, §16, §18, §21, §22): the types
 * its writers may use, the webhook endpoints' subscription filter and the dashboard's checkboxes.
 */
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

export type InvoiceEventType = Extract<EventType, `invoice.${string}`>;
export type RefundEventType = Extract<EventType, `refund.${string}`>;
export type CollectionEventType = Extract<EventType, `collection.${string}`>;

/**
 * "Send test event" (contract §10): queued to its one endpoint where it is made, never fanned out,
 * so no endpoint subscribes to it and it is not in EVENT_TYPES.
 */
export const TEST_EVENT_TYPE = 'webhook.test';

/** What a row of the outbox may be. */
export type OutboxEventType = EventType | typeof TEST_EVENT_TYPE;
