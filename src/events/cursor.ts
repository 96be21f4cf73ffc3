import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * A cursor over the committed events (the outbox), one row in its own table: the webhook fan-out's
 * (`webhook_fan_out`, migration 0009) and the mail fan-out's (`mail_fan_out`, 0026). Both read events
 * the same way, built here once:
 *
 * - by writing transaction and sequence, `(xid, seq)`, and only from transactions older than every
 *   transaction still running (pg_snapshot_xmin): no event can later appear behind the cursor, whatever
 *   order transactions commit in (a transactional outbox read by transaction id);
 * - the cursor row is locked SKIP LOCKED: one instance moves a cursor at a time, the others skip;
 * - the cursor moves in the same statement as what the round writes, so nothing is handed out twice or
 *   lost.
 *
 * The events are read with the cursor as the index scan's lower bound (a lateral join on
 * `events_fan_out_idx`), so a round costs what it reads, not what lies behind the cursor. (Until issue
 * 37 the comparison was a join filter: every round walked the index from the first event ever written,
 * which made the fan-out cost grow with the table, a third of the database's time per create in the
 * benchmark.) The cursor is read with `limit 1`: it has one row, and without statistics the planner
 * would guess hundreds and plan (and JIT-compile) for them.
 */
export type EventCursor = 'webhook_fan_out' | 'mail_fan_out';

/** The `cursor` and `ev` clauses of a round: the next `limit` committed events after the cursor. */
export function nextEvents(cursor: EventCursor, limit: number): RawBuilder<unknown> {
  return sql`
    cursor as (
      select xid, seq from ${sql.table(cursor)} for update skip locked limit 1
    ),
    ev as (
      select e.*
      from cursor c
      cross join lateral (
        select e.id, e.project_id, e.invoice_id, e.type, e.seq, e.xid, e.created_at from events e
        where e.xid is not null
          and (e.xid, e.seq) > (c.xid, c.seq)
          and e.xid < pg_snapshot_xmin(pg_current_snapshot())
        order by e.xid, e.seq
        limit ${limit}
      ) e
    )`;
}

/** The `moved` clause of a round: the cursor past the last event `ev` read (unchanged when none). */
export function moveCursor(cursor: EventCursor): RawBuilder<unknown> {
  return sql`
    last as (
      select xid, seq from ev order by xid desc, seq desc limit 1
    ),
    moved as (
      update ${sql.table(cursor)} f set xid = last.xid, seq = last.seq from last returning 1
    )`;
}

/**
 * The cursor's row, when it is gone. Only the tests remove it (they empty every table, events
 * included, between files); the fan-out then starts from the beginning.
 */
export async function ensureEventCursor(db: Kysely<Database>, cursor: EventCursor): Promise<boolean> {
  const made = await sql`insert into ${sql.table(cursor)} (xid, seq) values ('0', 0) on conflict do nothing
    returning 1`.execute(db);
  return made.rows.length > 0;
}
