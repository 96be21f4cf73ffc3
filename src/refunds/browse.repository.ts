import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { liveKey } from '../merchants/repository.js';
import type { RefundRow } from './refund.table.js';

type Db = Kysely<Database>;

// What the API, the dashboard and the CSV read of refunds: no lock, nothing written.

export function findRefund(db: Db, projectId: string, id: string) {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** The project's refunds ready to send, oldest first, in pages after `afterId` (the CSV export). */
export function readyRefunds(
  db: Db,
  projectId: string,
  after: { createdAt: Date; id: string } | undefined,
  limit: number,
) {
  let q = db
    .selectFrom('refunds')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('status', '=', 'ready');
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '>', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
      ]),
    );
  }
  return q.orderBy('created_at').orderBy('id').limit(limit).execute();
}

/** An invoice's refunds, oldest first. */
export function invoiceRefunds(db: Db, projectId: string, invoiceId: string): Promise<RefundRow[]> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Whether the invoice exists in the project (and, for the API, the key is live). */
export async function invoiceExists(db: Db, projectId: string, invoiceId: string, keyId?: string) {
  let q = db
    .selectFrom('invoices')
    .select(['id', 'rate'])
    .where('id', '=', invoiceId)
    .where('project_id', '=', projectId);
  if (keyId !== undefined) q = q.where(liveKey(keyId));
  return q.executeTakeFirst();
}

/** The refunds a merchant has to send (ready) or that are on their way (sent), newest first. */
export function waitingRefunds(db: Db, projectId: string, limit: number) {
  return db
    .selectFrom('refunds')
    .innerJoin('invoices', 'invoices.id', 'refunds.invoice_id')
    .selectAll('refunds')
    .select('invoices.rate')
    .where('refunds.project_id', '=', projectId)
    .where('refunds.status', 'in', ['ready', 'sent'])
    .orderBy('refunds.created_at', 'desc')
    .orderBy('refunds.id', 'desc')
    .limit(limit)
    .execute();
}

/** The project's ready refunds on one network, oldest first: one batch payout (safe-batch.ts). */
export function readyOn(db: Db, projectId: string, network: string, limit: number) {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('status', '=', 'ready')
    .where('network', '=', network)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** How many refunds are ready on each network of the project (refunds_waiting_idx). */
export async function readyCounts(db: Db, projectId: string) {
  const rows = await db
    .selectFrom('refunds')
    .select(['network', (eb) => eb.fn.countAll<string>().as('count')])
    .where('project_id', '=', projectId)
    .where('status', '=', 'ready')
    .groupBy('network')
    .orderBy('network')
    .execute();
  return rows.map((r) => ({ network: r.network ?? '', count: Number(r.count) }));
}

/**
 * Where ready refunds on a network go, and since when each waits (a Solana watcher follows the token
 * account of each address for the refund's token: contract §24).
 */
export async function readyRecipients(db: Db, network: string) {
  const rows = await db
    .selectFrom('refunds')
    .select(['address', 'token', (eb) => eb.fn.min('ready_at').as('since')])
    .where('network', '=', network)
    .where('status', '=', 'ready')
    .groupBy(['address', 'token'])
    .execute();
  return rows as Array<{ address: string; token: string; since: Date }>;
}

/** Whether refunds on the network wait for their transfer to become final. */
export async function anySent(db: Db, network: string): Promise<boolean> {
  const row = await db
    .selectFrom('refunds')
    .select('id')
    .where('network', '=', network)
    .where('status', '=', 'sent')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
