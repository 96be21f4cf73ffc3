import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { OutboxEvent } from './body.js';

/**
 * The only writer of the `events` table, the webhook outbox (contract §22). An event is written in
 * the transaction of the change it announces, so the type asks for a transaction: a change and its
 * event commit together or not at all. The webhook workers fan committed events out to endpoints
 * (src/webhooks/fan-out.ts); the `events_wake` trigger wakes them at commit (migration 0009).
 */

/** Appends events, in one statement whatever their number (one round trip per batch of changes). */
export async function insertEvents(tx: Transaction<Database>, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const col = <K extends keyof OutboxEvent>(k: K) => events.map((e) => e[k]);
  await sql`
    insert into events (id, project_id, invoice_id, type, body, created_at)
    select * from unnest(${col('id')}::text[], ${col('projectId')}::text[], ${col('invoiceId')}::text[],
                         ${col('type')}::text[], ${col('body')}::text[], ${col('createdAt')}::timestamptz[])`.execute(
    tx,
  );
}

/**
 * The same insert as a data-modifying clause of a statement that writes the events' subject in the
 * same round trip (the invoice create statement, which is one statement per batch for speed).
 * `rows` selects, in this order: id, project_id, invoice_id, type, body, created_at. Use it as
 * `with …, event as (${insertEventsFrom(sql`select …`)}) select …`.
 */
export function insertEventsFrom(rows: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`insert into events (id, project_id, invoice_id, type, body, created_at) ${rows}`;
}
