import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** The delivery queue's SQL: claiming due deliveries under a lease, and recording what became of them. */

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
  /** Attempts made so far; this one is `attempts + 1`. */
  attempts: number;
  url: string;
  secret: string;
  /** The secret before a roll, while it still signs beside `secret` (24 h); null otherwise. */
  previous_secret: string | null;
  body: string;
  /** The lease, and the fencing token for recording the outcome: only its holder may write it. */
  locked_until: Date;
}

export interface ClaimRequest {
  now: Date;
  leaseUntil: Date;
  limit: number;
  perEndpoint: number;
  /** This worker's deliveries in flight, by endpoint: they use up its per-endpoint room. */
  busy: ReadonlyMap<string, number>;
  /** Deliveries this worker is still sending: never claimed again by it, even if their lease lapsed. */
  inFlight: string[];
}

/**
 * Claims due deliveries, committed at once, so that the POSTs happen outside any transaction. Each
 * endpoint gets at most its remaining room (per-endpoint cap minus what is in flight), so a slow
 * receiver holds up only its own queue. SKIP LOCKED lets instances claim side by side; the due
 * conditions are repeated in the locking step because PostgreSQL re-checks them there against the
 * latest row version, so a row another instance has just leased is passed over, never leased twice.
 */
export async function claimDue(db: Db, r: ClaimRequest): Promise<ClaimedDelivery[]> {
  const due = sql`d.status = 'pending' and d.next_attempt_at <= ${r.now}
    and (d.locked_until is null or d.locked_until <= ${r.now})
    and d.id <> all(${r.inFlight}::bigint[])`;
  const result = await sql<ClaimedDelivery>`
    with room as (
      select e.id as endpoint_id, ${r.perEndpoint}::int - coalesce(b.n, 0) as n
      from webhook_endpoints e
      left join unnest(${[...r.busy.keys()]}::text[], ${[...r.busy.values()]}::int[]) as b (id, n) on b.id = e.id
      where e.deleted_at is null and e.status = 'active'
    ),
    candidates as (
      select c.id from room
      cross join lateral (
        select d.id, d.next_attempt_at from webhook_deliveries d
        where d.endpoint_id = room.endpoint_id and ${due}
        order by d.next_attempt_at
        limit room.n
      ) c
      where room.n > 0
      order by c.next_attempt_at, c.id
      limit ${r.limit}
    ),
    claimed as (
      select d.id from webhook_deliveries d
      where d.id = any(array(select id from candidates)) and ${due}
      for update skip locked
    )
    update webhook_deliveries d
    set locked_until = ${r.leaseUntil}, updated_at = ${r.now}
    from claimed, webhook_endpoints e, events ev
    where d.id = claimed.id and e.id = d.endpoint_id and ev.id = d.event_id
    returning d.id::text as id, d.event_id, d.endpoint_id, d.attempts, e.url, e.secret,
      case when e.previous_secret_expires_at > ${r.now} then e.previous_secret end as previous_secret,
      ev.body, d.locked_until`.execute(db);
  return result.rows;
}

export interface AttemptRecord {
  delivery: ClaimedDelivery;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  status: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: Date | null;
  now: Date;
}

/**
 * Logs the attempt and moves the delivery on, in one statement (so atomically, in one round trip).
 * The update only applies while this worker still holds its lease, and while the delivery is still
 * pending (a deleted endpoint's deliveries are closed); the attempt happened either way, so the log
 * always gets its row.
 */
export async function recordAttempt(db: Db, a: AttemptRecord): Promise<void> {
  await db
    .with('moved', (q) =>
      q
        .updateTable('webhook_deliveries')
        .set({
          status: a.status,
          attempts: a.attempt,
          next_attempt_at: a.nextAttemptAt ?? sql<Date>`next_attempt_at`,
          locked_until: null,
          updated_at: a.now,
        })
        .where('id', '=', a.delivery.id)
        .where('status', '=', 'pending')
        .where('locked_until', '=', a.delivery.locked_until)
        .returning('id'),
    )
    .insertInto('webhook_attempts')
    .values({
      delivery_id: a.delivery.id,
      endpoint_id: a.delivery.endpoint_id,
      event_id: a.delivery.event_id,
      attempt: a.attempt,
      started_at: a.startedAt,
      duration_ms: a.durationMs,
      response_status: a.responseStatus,
      error: a.error,
      next_attempt_at: a.nextAttemptAt,
    })
    .execute();
}

/** Gives a claimed delivery back unattempted (shutdown), so that any instance may send it at once. */
export async function releaseLease(db: Db, delivery: ClaimedDelivery): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ locked_until: null })
    .where('id', '=', delivery.id)
    .where('locked_until', '=', delivery.locked_until)
    .execute();
}

/** Each delivery of these events: its endpoint, state and last attempt. */
export function eventDeliveries(db: Db, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_attempts as a')
          .select(['a.response_status', 'a.duration_ms', 'a.started_at', 'a.error'])
          .whereRef('a.delivery_id', '=', 'd.id')
          .orderBy('a.id', 'desc')
          .limit(1)
          .as('last'),
      (join) => join.onTrue(),
    )
    .select([
      'd.id',
      'd.event_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'e.url',
      'last.response_status',
      'last.duration_ms',
      'last.started_at',
      'last.error',
    ])
    .where('d.event_id', 'in', eventIds)
    .orderBy('d.id')
    .execute();
}
