import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { TEST_EVENT_TYPE } from '../events/catalogue.js';
import { moveCursor, nextEvents } from '../events/cursor.js';

type Db = Kysely<Database>;

/**
 * One round of the fan-out, as one statement, so that it costs what the old trigger's join did and
 * nothing per event that no endpoint wants.
 *
 * Which events: the next committed ones after the webhook cursor, read as src/events/cursor.ts says
 * (one instance at a time; the cursor moves in the same statement as the deliveries are written).
 *
 * The rule, which endpoints receive an event (the `on` of the join below):
 *   - an endpoint of the event's own project,
 *   - active and not deleted,
 *   - added before the event was written (its events_after is the sequence when it was added), so a
 *     new endpoint is not sent a backlog of older events,
 *   - subscribed to the event's type, or to every type (an empty list);
 *   - and never a `webhook.test` event: each goes to its one endpoint, queued by "Send test event".
 * Each delivery is due at the event's time.
 */
export async function fanOutRound(
  db: Db,
  limit: number,
): Promise<{ events: number; deliveries: number } | undefined> {
  const result = await sql<{ locked: number; events: number; deliveries: number }>`
    with ${nextEvents('webhook_fan_out', limit)},
    delivered as (
      insert into webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
      select ev.id, w.id, 'pending', ev.created_at, ev.created_at, ev.created_at
      from ev
      join webhook_endpoints w
        on w.project_id = ev.project_id
       and w.status = 'active'
       and w.deleted_at is null
       and ev.seq > w.events_after
       and (cardinality(w.events) = 0 or ev.type = any(w.events))
      where ev.type <> ${TEST_EVENT_TYPE}
      returning 1
    ),
    ${moveCursor('webhook_fan_out')}
    select (select count(*) from cursor)::int as locked,
           (select count(*) from ev)::int as events,
           (select count(*) from delivered)::int as deliveries,
           (select count(*) from moved)::int as moved`.execute(db);
  const row = result.rows[0];
  return row && row.locked > 0 ? { events: row.events, deliveries: row.deliveries } : undefined;
}

/** Where the events sequence stands: a new endpoint receives the events written after this. */
export async function eventsWrittenSoFar(db: Db) {
  const result = await sql<{ n: string }>`
    select (case when is_called then last_value else 0 end)::text as n from events_seq`.execute(db);
  return result.rows[0]?.n ?? '0';
}
