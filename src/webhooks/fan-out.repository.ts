import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Tx = Transaction<Database>;

export interface DueEvent {
  id: string;
  project_id: string;
  type: string;
  seq: string;
  created_at: Date;
}

export interface CandidateEndpoint {
  id: string;
  project_id: string;
  events: string[];
  status: 'active' | 'disabled';
  deleted_at: Date | null;
  events_after: string;
}

/**
 * Events not fanned out yet, oldest first, locked: SKIP LOCKED lets the workers of several instances
 * take different events side by side, and never the same one twice.
 */
export async function lockDueEvents(tx: Tx, limit: number): Promise<DueEvent[]> {
  const result = await sql<DueEvent>`
    select id, project_id, type, seq::text as seq, created_at from events
    where fanned_out_at is null
    order by seq
    limit ${limit}
    for update skip locked`.execute(tx);
  return result.rows;
}

/** Every endpoint of these projects, whatever its state: the rule (fan-out.ts) decides. */
export function endpointsOf(tx: Tx, projectIds: readonly string[]) {
  return tx
    .selectFrom('webhook_endpoints')
    .select(['id', 'project_id', 'events', 'status', 'deleted_at', 'events_after'])
    .where('project_id', 'in', projectIds)
    .execute() as Promise<CandidateEndpoint[]>;
}

export async function insertDeliveries(
  tx: Tx,
  rows: ReadonlyArray<{ event_id: string; endpoint_id: string; at: Date }>,
) {
  if (rows.length === 0) return;
  await tx
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({
        event_id: r.event_id,
        endpoint_id: r.endpoint_id,
        status: 'pending' as const,
        next_attempt_at: r.at,
        locked_until: null,
        created_at: r.at,
        updated_at: r.at,
      })),
    )
    .execute();
}

export async function markFannedOut(tx: Tx, eventIds: readonly string[], now: Date) {
  await sql`update events set fanned_out_at = ${now} where id = any(${eventIds}::text[])`.execute(tx);
}

/** Where the events sequence stands: a new endpoint receives the events written after this. */
export async function eventsWrittenSoFar(tx: Tx) {
  const result = await sql<{ n: string }>`
    select (case when is_called then last_value else 0 end)::text as n from events_seq`.execute(tx);
  return result.rows[0]?.n ?? '0';
}
