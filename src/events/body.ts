import { newId } from '../ids.js';
import type { OutboxEventType } from './catalogue.js';

/**
 * One row of the `events` table, ready to insert (repository.ts): the invoice's history when it names
 * one, and the outbox webhooks are delivered from.
 */
export interface OutboxEvent {
  id: string;
  projectId: string;
  /** Null for a project's events that are about no invoice (collections, test events). */
  invoiceId: string | null;
  type: OutboxEventType;
  /** The exact JSON text every webhook attempt sends (eventBody below). */
  body: string;
  createdAt: Date;
}

/** A new event with a new `evt_` id, its body built once, here. */
export function newEvent(
  projectId: string,
  invoiceId: string | null,
  type: OutboxEventType,
  data: Record<string, unknown>,
  createdAt: Date,
  livemode: boolean,
): OutboxEvent {
  const id = newId('evt');
  const body = eventBody({ id, type, createdAt, livemode, data });
  return { id, projectId, invoiceId, type, body, createdAt };
}

/**
 * The one shape of every event body, invoices', refunds', collections' and test events alike
 * (contract §10, §21): `{ id, type, created_at, livemode, data }`. `livemode` is the object's own,
 * so a receiver can drop test events before it reads `data`, as with Stripe's.
 */
export function eventBody(e: {
  id: string;
  type: OutboxEventType;
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
