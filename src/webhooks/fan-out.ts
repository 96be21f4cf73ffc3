import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ensureEventCursor } from '../events/cursor.js';
import * as repo from './fan-out.repository.js';

/** Events fanned out per round: enough for a burst of creates, small enough for one short statement. */
export const FAN_OUT_BATCH = 500;

/**
 * One round of the fan-out: the next events after the cursor become one pending delivery per endpoint
 * that subscribes to them (the rule: `fanOutStatement` in fan-out.repository.ts), and the cursor moves
 * past them, in one statement. Returns how many events it handled (FAN_OUT_BATCH means more may be
 * waiting); 0 too when another instance holds the cursor right now.
 */
export async function fanOut(db: Kysely<Database>, limit = FAN_OUT_BATCH): Promise<number> {
  let round = await repo.fanOutRound(db, limit);
  // No cursor to lock: another instance holds it (skip this round), or its row is gone (make it).
  if (round === undefined && (await ensureEventCursor(db, 'webhook_fan_out')))
    round = await repo.fanOutRound(db, limit);
  return round?.events ?? 0;
}
