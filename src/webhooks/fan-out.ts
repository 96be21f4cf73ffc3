import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CandidateEndpoint, DueEvent } from './fan-out.repository.js';
import * as repo from './fan-out.repository.js';
import { TEST_EVENT_TYPE } from './webhook.js';

/**
 * The fan-out rule: which endpoints receive an event. An endpoint receives the events of its own
 * project that were written after it was added, while it is active and not deleted, of the types it
 * subscribes to (no list means every type). Test events are never fanned out: each is queued for its
 * one endpoint by the action that makes it.
 */
export function subscribes(endpoint: CandidateEndpoint, event: DueEvent): boolean {
  return (
    event.type !== TEST_EVENT_TYPE &&
    endpoint.project_id === event.project_id &&
    endpoint.status === 'active' &&
    endpoint.deleted_at === null &&
    BigInt(event.seq) > BigInt(endpoint.events_after) &&
    (endpoint.events.length === 0 || endpoint.events.includes(event.type))
  );
}

/** Events fanned out per round: enough for a burst of creates, small enough for one short transaction. */
export const FAN_OUT_BATCH = 500;

/**
 * One round of the fan-out: the oldest events not yet handled become one pending delivery per
 * subscribed endpoint (due at the event's time), and are marked handled, in one transaction. Returns
 * how many events it handled (FAN_OUT_BATCH means more may be waiting).
 */
export async function fanOut(db: Kysely<Database>, now: Date, limit = FAN_OUT_BATCH): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const events = await repo.lockDueEvents(tx, limit);
    if (events.length === 0) return 0;
    const endpoints = await repo.endpointsOf(tx, [...new Set(events.map((e) => e.project_id))]);
    const deliveries = events.flatMap((event) =>
      endpoints
        .filter((endpoint) => subscribes(endpoint, event))
        .map((endpoint) => ({ event_id: event.id, endpoint_id: endpoint.id, at: event.created_at })),
    );
    await repo.insertDeliveries(tx, deliveries);
    await repo.markFannedOut(
      tx,
      events.map((e) => e.id),
      now,
    );
    return events.length;
  });
}
