import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;
type Tx = Transaction<Database>;

// The Idempotency-Keys of refund requests (contract §4): create, cancel and new claim link alike.

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
