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

/** Paid volume per UTC day since `from`, through the paid-invoices index; cents keep it exact. */
export function paidPerDay(db: Kysely<Database>, projectId: string, from: Date) {
  return db
    .selectFrom('invoices')
    .select([
      sql<string>`to_char(paid_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      sql<string>`sum(amount)::text`.as('volume'),
      sql<string>`(sum(amount) * 100)::bigint::text`.as('cents'),
      sql<string>`count(*)::text`.as('count'),
    ])
    .where('project_id', '=', projectId)
    .where('paid_at', 'is not', null)
    .where('paid_at', '>=', from)
    .where('status', '=', 'paid')
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
}
