import type { Kysely } from 'kysely';
import { audit, OPERATOR } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { parseEmail } from './email.js';
import { issueLink } from './links.js';
import { removeRecoveryCodes } from './recovery-codes.js';
import * as repo from './repository.js';

export interface ResetResult {
  email: string;
  inviteUrl: string;
  sessionsEnded: number;
  /** Whether sign-in still asks for a code from the user's app (or a recovery code). */
  twoFactorKept: boolean;
}

/**
 * The operator's reset (`npm run users -- reset <email>`), for a user who lost access or whose access is
 * in doubt: a new one-time link to set a password (older links stop working), every session ended,
 * and the old password no longer accepted, all in one transaction. Ending the sessions alone would
 * leave a stolen password working; the link is the only way back in. Two-factor stays on unless
 * `removeTwoFactor` (the phone is lost too, and so are the recovery codes). Undefined: no such user.
 */
export async function resetAccess(
  db: Kysely<Database>,
  emailInput: string,
  options: { removeTwoFactor: boolean },
  ctx: { now: Date; publicBaseUrl: string },
): Promise<ResetResult | undefined> {
  const email = parseEmail(emailInput);
  if (!email.ok) return undefined;
  return db.transaction().execute(async (tx) => {
    const user = await repo.findUserByEmail(tx, email.email);
    if (!user) return undefined;
    const inviteUrl = await issueLink(tx, user.id, ctx);
    await repo.updateUser(tx, user.id, {
      password_hash: null,
      ...(options.removeTwoFactor ? { totp_secret: null, totp_pending: null } : {}),
    });
    if (options.removeTwoFactor) await removeRecoveryCodes(tx, user.id);
    const sessionsEnded = await repo.deleteUserSessions(tx, user.id);
    const change = { actor: OPERATOR, now: ctx.now };
    await audit(tx, user.account_id, change, 'user.access_reset', user.email);
    if (options.removeTwoFactor && user.totp_secret) {
      await audit(tx, user.account_id, change, 'user.totp_disabled', user.email);
    }
    return {
      email: user.email,
      inviteUrl,
      sessionsEnded,
      twoFactorKept: !options.removeTwoFactor && user.totp_secret !== null,
    };
  });
}
