import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import * as repo from './repository.js';
import { hashToken, newToken } from './tokens.js';

export const INVITE_TTL_MS = 72 * 3600_000;

/**
 * A new single-use link to set a password (72 h), in place of every link of the user not yet used:
 * only the newest link works, so a link sent to the wrong place is ended by sending another. The
 * token is in the returned URL only; the database keeps its SHA-256.
 */
export async function issueLink(
  tx: Transaction<Database>,
  userId: string,
  ctx: { now: Date; publicBaseUrl: string },
): Promise<string> {
  const token = newToken();
  await repo.deleteOpenInvites(tx, userId);
  await repo.insertInvite(tx, {
    token_hash: hashToken(token),
    user_id: userId,
    expires_at: new Date(ctx.now.getTime() + INVITE_TTL_MS),
    created_at: ctx.now,
  });
  return `${ctx.publicBaseUrl}/dashboard/invite/${token}`;
}
