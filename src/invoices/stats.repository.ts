import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/** Invoices per status, from the counters the invoices trigger keeps: the same cost for 1k or 1M. */
export async function countByStatus(db: Kysely<Database>, projectId: string) {
  const rows = await db
    .selectFrom('invoice_counts')
    .select(['status', sql<string>`coalesce(sum(n), 0)`.as('n')])
    .where('project_id', '=', projectId)
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, BigInt(r.n)]));
}

/** Paid volume per UTC day since `from`, from the per-day totals the invoices trigger keeps (0006). */
export function paidPerDay(db: Kysely<Database>, projectId: string, from: Date) {
  return db
    .selectFrom('invoice_paid_daily')
    .select([
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
      sql<string>`sum(volume)::text`.as('volume'),
      sql<string>`sum(n)::text`.as('count'),
    ])
    .where('project_id', '=', projectId)
    .where('day', '>=', sql<Date>`${from.toISOString().slice(0, 10)}::date`)
    .groupBy('day')
    .orderBy('day')
    .execute();
}
