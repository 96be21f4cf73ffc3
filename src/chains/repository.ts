import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;
type Tx = Transaction<Database>;

/** A watcher's own bookkeeping: where it has got to on its network, and recent block hashes. */

export function cursorOf(db: Db, network: string) {
  return db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirst();
}

/** Moves the cursor and remembers the hashes of the blocks passed (inside the caller's transaction). */
export async function advance(
  tx: Tx,
  network: string,
  blocks: Array<{ number: bigint; hash: string }>,
  now: Date,
): Promise<void> {
  const last = blocks.at(-1);
  if (!last) return;
  await tx
    .insertInto('chain_blocks')
    .values(blocks.map((b) => ({ network, block_number: b.number.toString(), block_hash: b.hash })))
    .onConflict((oc) =>
      oc
        .columns(['network', 'block_number'])
        .doUpdateSet((eb) => ({ block_hash: eb.ref('excluded.block_hash') })),
    )
    .execute();
  await tx
    .insertInto('chain_cursors')
    .values({ network, block_number: last.number.toString(), block_hash: last.hash, updated_at: now })
    .onConflict((oc) =>
      oc.column('network').doUpdateSet({
        block_number: last.number.toString(),
        block_hash: last.hash,
        updated_at: now,
      }),
    )
    .execute();
}

/** After a reorganisation: forget every block above the common ancestor and put the cursor on it. */
export async function rewind(tx: Tx, network: string, ancestor: { number: bigint; hash: string }, now: Date) {
  await tx
    .deleteFrom('chain_blocks')
    .where('network', '=', network)
    .where('block_number', '>', ancestor.number.toString())
    .execute();
  await tx
    .updateTable('chain_cursors')
    .set({ block_number: ancestor.number.toString(), block_hash: ancestor.hash, updated_at: now })
    .where('network', '=', network)
    .execute();
}

/** Remembered block hashes below `below`, newest first: candidates for the common ancestor. */
export function recentBlocks(db: Db, network: string, below: bigint, limit: number) {
  return db
    .selectFrom('chain_blocks')
    .select(['block_number', 'block_hash'])
    .where('network', '=', network)
    .where('block_number', '<', below.toString())
    .orderBy('block_number', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Records that the node lags behind the cursor (a reason), or keeps up again (null). Only a change
 * is written: the first time a lag is seen sets `lagging_since`, a longer lag keeps it.
 */
export async function setLag(db: Db, network: string, reason: string | null, now: Date) {
  await db
    .updateTable('chain_cursors')
    .set(
      reason === null
        ? { lagging_since: null, lag_reason: null }
        : (eb) => ({ lagging_since: eb.fn.coalesce('lagging_since', eb.val(now)), lag_reason: reason }),
    )
    .where('network', '=', network)
    .execute();
}

/** Every watched network's lag as its watcher last recorded it (for /v1/health). */
export function lags(db: Db) {
  return db.selectFrom('chain_cursors').select(['network', 'lagging_since', 'lag_reason']).execute();
}

/** Old block hashes are only needed as far back as a reorganisation can reach. */
export function pruneBlocks(db: Db, network: string, below: bigint) {
  return db
    .deleteFrom('chain_blocks')
    .where('network', '=', network)
    .where('block_number', '<', below.toString())
    .execute();
}
