import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import './cursor.table.js';

/** The Solana watcher's own bookkeeping: one cursor per watched token account. */

export function cursorsOf(db: Kysely<Database>, network: string) {
  return db.selectFrom('solana_cursors').selectAll().where('network', '=', network).execute();
}

/** Moves cursors, inside the transaction that reported what they passed (observe's `alongside`). */
export async function saveCursors(
  tx: Transaction<Database>,
  network: string,
  cursors: Array<{ account: string; signature: string; slot: number }>,
  now: Date,
): Promise<void> {
  if (cursors.length === 0) return;
  await tx
    .insertInto('solana_cursors')
    .values(
      cursors.map((c) => ({
        network,
        account: c.account,
        signature: c.signature,
        slot: String(c.slot),
        updated_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['network', 'account']).doUpdateSet((eb) => ({
        signature: eb.ref('excluded.signature'),
        slot: eb.ref('excluded.slot'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}
