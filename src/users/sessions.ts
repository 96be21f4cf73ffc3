import type { Kysely } from 'kysely';
import { audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import * as repo from './repository.js';
import { hashToken, hasTokenShape, newToken } from './tokens.js';
import type { Role } from './user.table.js';

/** A session ends 12 hours after its last request, and 7 days after sign-in whatever happens. */
export const IDLE_MS = 12 * 3600_000;
export const ABSOLUTE_MS = 7 * 24 * 3600_000;
/** last_seen_at is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

export interface Session {
  /** The cookie's token itself: never stored; it seals what only this session may read (form-results.ts). */
  token: string;
  tokenHash: Buffer;
  csrfToken: string;
  userId: string;
  email: string;
  role: Role;
  accountId: string;
  projectId: string | null;
  /** The password checked out; the TOTP code is still owed. */
  needsTotp: boolean;
  totpEnabled: boolean;
}

export async function startSession(db: Kysely<Database>, userId: string, needsTotp: boolean, now: Date) {
  const token = newToken();
  await repo.insertSession(db, {
    token_hash: hashToken(token),
    user_id: userId,
    csrf_token: newToken(),
    needs_totp: needsTotp,
    now,
    expires_at: new Date(now.getTime() + ABSOLUTE_MS),
  });
  return token;
}

/**
 * The live session a cookie names, read from the database on every request: no cache, so a session
 * deleted on one instance (sign-out, removal, password change) is over on all of them at once.
 */
export async function loadSession(
  db: Kysely<Database>,
  token: string | undefined,
  now: Date,
): Promise<Session | undefined> {
  if (!token || !hasTokenShape(token)) return undefined;
  const tokenHash = hashToken(token);
  const row = await repo.findSession(db, tokenHash, now);
  if (row?.account_status !== 'active') return undefined;
  const idle = now.getTime() - row.last_seen_at.getTime();
  if (idle > IDLE_MS) {
    await repo.deleteSession(db, tokenHash);
    return undefined;
  }
  if (idle > TOUCH_EVERY_MS) await repo.updateSession(db, tokenHash, { last_seen_at: now });
  return {
    token,
    tokenHash,
    csrfToken: row.csrf_token,
    userId: row.user_id,
    email: row.email,
    role: row.role,
    accountId: row.account_id,
    projectId: row.project_id,
    needsTotp: row.needs_totp,
    totpEnabled: row.totp_secret !== null,
  };
}

export function endSession(db: Kysely<Database>, tokenHash: Buffer) {
  return repo.deleteSession(db, tokenHash);
}

export function selectProject(db: Kysely<Database>, tokenHash: Buffer, projectId: string) {
  return repo.updateSession(db, tokenHash, { project_id: projectId });
}

export function completeTotp(db: Kysely<Database>, tokenHash: Buffer) {
  return repo.updateSession(db, tokenHash, { needs_totp: false });
}

/** A completed sign-in: the user's last sign-in time and its audit row, together. */
export function recordSignIn(
  db: Kysely<Database>,
  user: { id: string; email: string; accountId: string },
  how: string | null,
  now: Date,
) {
  return db.transaction().execute(async (tx) => {
    await repo.updateUser(tx, user.id, { last_sign_in_at: now });
    await audit(
      tx,
      user.accountId,
      { actor: { id: user.id, email: user.email }, now },
      'user.signed_in',
      how,
    );
  });
}
