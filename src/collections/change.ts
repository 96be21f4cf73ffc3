import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { eventBody } from '../events/body.js';
import { newId } from '../ids.js';
import { gather, toCollection } from './collection.js';
import type { CollectionRow } from './collection.table.js';
import { type CollectionAction, type CollectionEventType, stateOf, transition } from './lifecycle.js';
import * as repo from './repository.js';

/**
 * The one code path that changes a collection (contract §22): in one transaction, lock the network's
 * collector lease and check that this instance still holds the term it claimed (an instance that lost
 * the lead stores nothing: no signed bytes, no `collection.failed`), lock the collection and re-read
 * it, run the pure state machine, and write the row, its new transaction, the deposits it gives back
 * and its event beside it. The collector only says what it saw or signed.
 */

export interface Lease {
  network: string;
  term: string;
  holder: string;
}

/** This instance no longer leads the network's collector: its round ends, nothing was written. */
export class LeaseLost extends Error {
  constructor(network: string) {
    super(`collector of ${network}: another instance leads it now`);
    this.name = 'LeaseLost';
  }
}

export interface Extras {
  /** With `signed`: the signed bytes, stored here and only here. */
  raw?: string;
  /** With `final`: deposits whose sweep failed, given back (collectable again, marked with when). */
  sweepsFailed?: ReadonlyArray<{ invoiceId: string; token: string }>;
}

export async function changeCollection(
  db: Kysely<Database>,
  lease: Lease,
  id: string,
  action: CollectionAction,
  ctx: { now: Date } & Extras,
): Promise<CollectionRow> {
  try {
    return await db.transaction().execute(async (tx) => {
      const held = await repo.lockLease(tx, lease.network);
      if (held?.term !== lease.term || held.holder !== lease.holder) throw new LeaseLost(lease.network);
      const before = await repo.lockCollection(tx, id);
      const outcome = transition(stateOf(before), action, ctx.now);
      if (!outcome.changed) return before;
      if (action.kind === 'signed') {
        const raw = ctx.raw ?? '';
        const attempt = outcome.state.attempts;
        await repo.saveTransaction(tx, { hash: action.hash, collectionId: id, attempt, raw, at: ctx.now });
      }
      if (action.kind === 'final' && ctx.sweepsFailed?.length) {
        await repo.releaseDeposits(tx, id, ctx.sweepsFailed, ctx.now);
      }
      if (outcome.releaseAll) await repo.releaseDeposits(tx, id);
      const after = await repo.saveCollection(tx, id, outcome.state);
      if (outcome.event) await announce(tx, after, outcome.event, ctx.now);
      return after;
    });
  } catch (err) {
    // One account's nonce is one collection's (collections_nonce_idx): another signer got there first.
    if ((err as { code?: unknown }).code === '23505') throw new LeaseLost(lease.network);
    throw err;
  }
}

async function announce(tx: Transaction<Database>, row: CollectionRow, type: CollectionEventType, now: Date) {
  const contents = gather(await repo.contentsOf(tx, [row.id])).get(row.id) ?? { deposits: 0, amounts: {} };
  const id = newId('evt');
  const data = { collection: toCollection(row, contents) };
  const body = eventBody({ id, type, createdAt: now, livemode: row.livemode, data });
  await repo.saveCollectionEvent(tx, { id, projectId: row.project_id, type, body, at: now });
}
