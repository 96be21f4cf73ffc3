import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId } from '../ids.js';

export const EVENT_TYPES = [
  'invoice.created',
  'invoice.payment_detected',
  'invoice.paid',
  'invoice.expired',
  'invoice.failed',
] as const;
export type WebhookEventType = (typeof EVENT_TYPES)[number];

export interface OutboxEvent {
  id: string;
  projectId: string;
  invoiceId: string;
  type: WebhookEventType;
  /** The exact JSON text every attempt sends. */
  body: string;
  createdAt: Date;
}

/** Builds an event with its final body: `{ id, type, created_at, data }` (contract §10). */
export function newEvent(
  projectId: string,
  invoiceId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  createdAt: Date,
): OutboxEvent {
  const id = newId('evt');
  const body = JSON.stringify({ id, type, created_at: createdAt.toISOString(), data });
  return { id, projectId, invoiceId, type, body, createdAt };
}

/**
 * The fan-out from events to deliveries: one pending delivery per active endpoint of the project that
 * subscribes to the event's type (no `events` list means all). `events` names a CTE or table with
 * columns id, type, project_id. Written in the same statement as the events themselves, so an event
 * and its deliveries are committed together or not at all.
 */
export function fanOut(events: RawBuilder<unknown>, now: Date | RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    insert into webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
    select ev.id, e.id, 'pending', ${now}, ${now}, ${now}
    from ${events} ev
    join webhook_endpoints e
      on e.project_id = ev.project_id
     and e.status = 'active'
     and e.deleted_at is null
     and (cardinality(e.events) = 0 or ev.type = any(e.events))`;
}

/**
 * Whether an active endpoint of the project wants events of this type. Events exist to be delivered:
 * an endpoint receives the events that happen after it was added (as Stripe's do), so a change nobody
 * subscribes to writes no event at all and costs the write path nothing.
 */
export function subscribed(projectId: RawBuilder<unknown>, type: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from webhook_endpoints we
    where we.project_id = ${projectId} and we.status = 'active' and we.deleted_at is null
      and (cardinality(we.events) = 0 or ${type} = any(we.events)))`;
}

/** Writes events and their deliveries inside the caller's transaction (the outbox pattern). */
export async function writeEvents(
  tx: Transaction<Database>,
  events: OutboxEvent[],
  now: Date,
): Promise<void> {
  if (events.length === 0) return;
  const col = <K extends keyof OutboxEvent>(k: K) => events.map((e) => e[k]);
  await sql`
    with ev as (
      insert into events (id, project_id, invoice_id, type, body, created_at)
      select * from unnest(${col('id')}::text[], ${col('projectId')}::text[], ${col('invoiceId')}::text[],
                           ${col('type')}::text[], ${col('body')}::text[], ${col('createdAt')}::timestamptz[])
        as u(id, project_id, invoice_id, type, body, created_at)
      where ${subscribed(sql`u.project_id`, sql`u.type`)}
      returning id, type, project_id
    )
    ${fanOut(sql`ev`, now)}`.execute(tx);
}
