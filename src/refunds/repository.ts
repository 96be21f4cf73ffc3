import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { liveKey } from '../merchants/repository.js';
import type { RefundRow, RefundTable } from './refund.table.js';

type Db = Kysely<Database>;
type Tx = Transaction<Database>;

/**
 * The invoice a refund is made against, locked for the transaction: two refunds of one invoice, on
 * any instance, take turns, so each sees what the other refunded (the sum never exceeds what was
 * paid). `keyId`, for the merchant API: nothing is found unless the key is still live.
 */
export function lockInvoice(tx: Tx, projectId: string, invoiceId: string, keyId?: string) {
  let q = tx
    .selectFrom('invoices')
    .innerJoin('projects', 'projects.id', 'invoices.project_id')
    .select([
      'invoices.id',
      'invoices.project_id',
      'projects.account_id',
      'invoices.status',
      'invoices.amount',
      'invoices.currency',
      'invoices.livemode',
      'invoices.rate',
      'invoices.amount_paid',
      'invoices.amount_after_close',
      'invoices.amount_refunded',
    ])
    .where('invoices.id', '=', invoiceId)
    .where('invoices.project_id', '=', projectId);
  if (keyId !== undefined) q = q.where(liveKey(keyId));
  return q.forUpdate('invoices').executeTakeFirst();
}

export type LockedInvoice = NonNullable<Awaited<ReturnType<typeof lockInvoice>>>;

/** Adds `delta` (negative when a refund is canceled) to the invoice's refunded total. */
export async function addRefunded(tx: Tx, invoiceId: string, delta: string, now: Date) {
  await sql`update invoices set amount_refunded = amount_refunded + ${delta}::numeric, updated_at = ${now}
            where id = ${invoiceId}`.execute(tx);
}

export function insertRefund(tx: Tx, row: RefundTable) {
  return tx.insertInto('refunds').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * The refund an Idempotency-Key made, while the key is kept (24 h, contract §4), with the request it
 * was made for. Read in the transaction that holds the invoice's lock.
 */
export function refundOfKey(tx: Tx, projectId: string, key: string, since: Date) {
  return tx
    .selectFrom('refund_idempotency_keys as k')
    .innerJoin('refunds as r', 'r.id', 'k.refund_id')
    .selectAll('r')
    .select('k.request_hash')
    .where('k.project_id', '=', projectId)
    .where('k.key', '=', key)
    .where('k.created_at', '>=', since)
    .executeTakeFirst();
}

/**
 * Claims a key for a refund; a key older than `since` is taken over. False when another request holds
 * it (a refund of another invoice made with the same key at the same moment).
 */
export async function claimKey(
  tx: Tx,
  k: { projectId: string; key: string; requestHash: string; refundId: string; now: Date; since: Date },
): Promise<boolean> {
  const row = await tx
    .insertInto('refund_idempotency_keys')
    .values({
      project_id: k.projectId,
      key: k.key,
      request_hash: k.requestHash,
      refund_id: k.refundId,
      created_at: k.now,
    })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'key'])
        .doUpdateSet({ request_hash: k.requestHash, refund_id: k.refundId, created_at: k.now })
        .where('refund_idempotency_keys.created_at', '<', k.since),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function purgeKeys(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('refund_idempotency_keys').where('created_at', '<', before).execute();
}

export async function invoiceOfRefund(tx: Tx, projectId: string, id: string) {
  const row = await tx
    .selectFrom('refunds')
    .select('invoice_id')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.invoice_id;
}

/** The refund a claim token opens, with what its page shows. */
export function findByClaim(db: Db | Tx, tokenHash: string) {
  return db
    .selectFrom('refunds')
    .innerJoin('invoices', 'invoices.id', 'refunds.invoice_id')
    .innerJoin('projects', 'projects.id', 'refunds.project_id')
    .leftJoin('project_logos as l', 'l.project_id', 'projects.id')
    .selectAll('refunds')
    .select([
      'invoices.rate',
      'invoices.payment_methods',
      // What the claim page shows of the project: its name and branding, nothing else.
      'projects.name as project_name',
      'projects.brand_color',
      'l.hash as logo_hash',
      'l.width as logo_width',
      'l.height as logo_height',
    ])
    .where('refunds.claim_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export type ClaimRow = NonNullable<Awaited<ReturnType<typeof findByClaim>>>;

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

/**
 * The watcher's cursor on a network, read as plain SQL: the chain watcher depends on this module (it
 * reports refund transfers here), so this module must not import the watcher's.
 */
export async function watchedUpTo(tx: Tx, network: string): Promise<string | null> {
  const { rows } = await sql<{ block_number: string }>`
    select block_number::text as block_number from chain_cursors where network = ${network}`.execute(tx);
  return rows[0]?.block_number ?? null;
}

/** Which refunds a change is about: each kind is one probe of an index, whatever the table's size. */
export type RefundTarget =
  /** One refund of a project (of one invoice when `invoiceId` is given). */
  | { kind: 'one'; projectId: string; refundId: string; invoiceId?: string }
  /** The refund a claim link opens. */
  | { kind: 'claim'; tokenHash: string }
  /** Ready refunds on `network` to one of `addresses` (a watcher's transfers). */
  | { kind: 'ready_to'; network: string; addresses: string[] }
  /** Sent refunds on `network` whose transfer's block is at or below `block`: now final. */
  | { kind: 'sent_up_to'; network: string; block: bigint }
  /** Sent refunds on `network` whose transfer's block is above `block` (a reorganisation dropped it). */
  | { kind: 'sent_above'; network: string; block: bigint };

/**
 * The target's refunds, locked for the transaction, in id order (two transactions locking overlapping
 * sets take them in the same order, so they never deadlock), with what their changes need of their
 * invoice and project. Read under the lock: what a caller read before is never trusted.
 */
export function lockRefunds(tx: Tx, target: RefundTarget) {
  let q = tx
    .selectFrom('refunds')
    .innerJoin('invoices', 'invoices.id', 'refunds.invoice_id')
    .innerJoin('projects', 'projects.id', 'refunds.project_id')
    .selectAll('refunds')
    .select(['invoices.rate', 'invoices.payment_methods', 'projects.account_id']);
  switch (target.kind) {
    case 'one':
      q = q.where('refunds.id', '=', target.refundId).where('refunds.project_id', '=', target.projectId);
      if (target.invoiceId !== undefined) q = q.where('refunds.invoice_id', '=', target.invoiceId);
      break;
    case 'claim':
      q = q.where('refunds.claim_token_hash', '=', target.tokenHash);
      break;
    case 'ready_to':
      q = q
        .where('refunds.network', '=', target.network)
        .where('refunds.status', '=', 'ready')
        .where('refunds.address', '=', (eb) => eb.fn.any(eb.val(target.addresses)));
      break;
    case 'sent_up_to':
    case 'sent_above':
      q = q
        .where('refunds.network', '=', target.network)
        .where('refunds.status', '=', 'sent')
        .where('refunds.block_number', target.kind === 'sent_up_to' ? '<=' : '>', target.block.toString());
      break;
  }
  return q.orderBy('refunds.id').forUpdate('refunds').execute();
}

export type LockedRefund = Awaited<ReturnType<typeof lockRefunds>>[number];

/** The invoice of a refund, locked first wherever money moves: the order every writer of both takes. */
export async function lockInvoiceOfRefund(tx: Tx, projectId: string, refundId: string) {
  const invoiceId = await invoiceOfRefund(tx, projectId, refundId);
  return invoiceId === undefined ? undefined : lockInvoice(tx, projectId, invoiceId);
}

/** The only statement that changes a refund after its insert (change.ts, after the lifecycle decided). */
export function saveRefund(tx: Tx, id: string, patch: Partial<RefundTable>) {
  return tx.updateTable('refunds').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
