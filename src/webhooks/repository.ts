import type { Insertable } from 'kysely';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WebhookEndpointTable } from './webhook.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The channel of migration 0002's trigger: it wakes the delivery workers of every instance. */
export const WEBHOOK_CHANNEL = 'paydesk_webhooks';

export function insertEndpoint(db: Db, row: Insertable<WebhookEndpointTable>) {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findEndpoint(db: Db, id: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listEndpoints(db: Db, projectId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function softDeleteEndpoint(db: Db, id: string, now: Date) {
  return db
    .updateTable('webhook_endpoints')
    .set({ deleted_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Deliveries to a deleted endpoint will never be sent: they end here, out of the workers' queue. */
export function abandonDeliveries(db: Db, endpointId: string, now: Date) {
  return db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', locked_until: null, updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** The delivery log of one endpoint, newest first, with each attempt's event type. */
export function listAttempts(db: Db, endpointId: string, page: { limit: number; offset: number }) {
  return db
    .selectFrom('webhook_attempts as a')
    .innerJoin('events as ev', 'ev.id', 'a.event_id')
    .select([
      'a.event_id',
      'ev.type',
      'a.attempt',
      'a.started_at',
      'a.duration_ms',
      'a.response_status',
      'a.error',
      'a.next_attempt_at',
    ])
    .where('a.endpoint_id', '=', endpointId)
    .orderBy('a.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countAttempts(db: Db, endpointId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Locks the event, so that two redeliveries of it at once queue one series, not two. */
export function lockEvent(db: Db, id: string) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'project_id'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Live endpoints the event was delivered (or meant to be delivered) to, and whether a series is open
 * and waiting. A series with an attempt in flight does not count: that attempt may be its last.
 */
export function eventEndpoints(db: Db, eventId: string, now: Date) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['e.id', 'e.url'])
    .select(
      sql<boolean>`bool_or(d.status = 'pending' and (d.locked_until is null or d.locked_until <= ${now}))`.as(
        'open',
      ),
    )
    .where('d.event_id', '=', eventId)
    .where('e.deleted_at', 'is', null)
    .where('e.status', '=', 'active')
    .groupBy(['e.id', 'e.url'])
    .orderBy('e.id')
    .execute();
}

/** Brings an open series' next attempt forward to now. */
export function rescheduleOpen(db: Db, eventId: string, endpointIds: string[], now: Date) {
  if (endpointIds.length === 0) return Promise.resolve([]);
  return db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, updated_at: now })
    .where('event_id', '=', eventId)
    .where('endpoint_id', 'in', endpointIds)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}

/** A new attempt series (attempt 1 again) for each endpoint; the old delivery keeps its history. */
export function insertDeliveries(db: Db, eventId: string, endpointIds: string[], now: Date) {
  if (endpointIds.length === 0) return Promise.resolve([]);
  return db
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpointId) => ({
        event_id: eventId,
        endpoint_id: endpointId,
        status: 'pending' as const,
        next_attempt_at: now,
        locked_until: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/** Wakes every instance's delivery worker at commit (the insert trigger does this for new deliveries). */
export async function wakeWorkers(db: Db): Promise<void> {
  await sql`select pg_notify(${WEBHOOK_CHANNEL}, '')`.execute(db);
}

export function setEndpointStatus(db: Db, id: string, status: 'active' | 'disabled') {
  return db
    .updateTable('webhook_endpoints')
    .set({ status })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** The new secret signs from now on; the old one signs beside it until `overlapUntil`. */
export function rollSecret(db: Db, id: string, secret: string, overlapUntil: Date) {
  return db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret: eb.ref('secret'),
      previous_secret_expires_at: overlapUntil,
      secret,
    }))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The delivery of a test event to its one endpoint: the fan-out never sends webhook.test anywhere,
 * so its delivery is queued here, beside the event (src/events writes the event).
 */
export async function queueTestDelivery(db: Db, eventId: string, endpointId: string, at: Date) {
  await db
    .insertInto('webhook_deliveries')
    .values({
      event_id: eventId,
      endpoint_id: endpointId,
      status: 'pending',
      next_attempt_at: at,
      locked_until: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
