import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type Money, money, ZERO } from '../money/money.js';
import { countByStatus, paidPerDay } from './stats.repository.js';
import { INVOICE_STATUSES, type InvoiceStatus } from './status.js';

const DAY_MS = 86_400_000;

export interface PaidDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  count: number;
  volume: Money;
}

/**
 * A project's invoices by status and its paid volume per UTC day over the last `days` days, every day
 * present (zero where nothing was paid). Both come from counters the database keeps, so they cost the
 * same for a thousand invoices or a million.
 */
export async function projectStats(db: Kysely<Database>, projectId: string, now: Date, days: number) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  const [counts, paid] = await Promise.all([countByStatus(db, projectId), paidPerDay(db, projectId, from)]);
  const byDay = new Map(paid.map((p) => [p.day, p]));
  const perDay: PaidDay[] = Array.from({ length: days }, (_, i) => {
    const day = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, count: Number(row?.count ?? 0), volume: row ? money(row.volume) : ZERO };
  });
  const byStatus = INVOICE_STATUSES.map((status: InvoiceStatus) => ({
    status,
    count: counts.get(status) ?? 0n,
  }));
  return { byStatus, perDay };
}
