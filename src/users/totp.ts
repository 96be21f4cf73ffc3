import type { Kysely } from 'kysely';
import { audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import type { SecretKey } from '../secrets/key.js';
import { verifyPassword } from './password.js';
import { removeRecoveryCodes, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.js';
import * as repo from './repository.js';
import { isAppCode, matchingStep, newTotpSecret, totpUri } from './totp-code.js';
import { openTotp, sealTotp } from './totp-secret.js';
import type { DashboardUserRow } from './user.table.js';

type User = { id: string; email: string; accountId: string };

/** Starts enrolment: a new secret waits, unconfirmed (and sealed), until a code from it is entered. */
export async function beginTotp(db: Kysely<Database>, key: SecretKey | undefined, user: User) {
  const secret = newTotpSecret();
  await repo.updateUser(db, user.id, { totp_pending: sealTotp(key, user.id, secret) });
  return { secret, uri: totpUri(secret, user.email) };
}

export async function pendingTotp(db: Kysely<Database>, key: SecretKey | undefined, user: User) {
  const row = await repo.findUserById(db, user.id);
  if (!row?.totp_pending) return undefined;
  const secret = openTotp(key, user.id, row.totp_pending);
  return { secret, uri: totpUri(secret, user.email) };
}

/**
 * Confirms enrolment with a code from the app; only then does sign-in ask for codes. The code's time
 * step counts as used. Returns the new recovery codes, to be shown this once.
 */
export async function confirmTotp(
  db: Kysely<Database>,
  key: SecretKey | undefined,
  user: User,
  code: string,
  now: Date,
) {
  const row = await repo.findUserById(db, user.id);
  const secret = row?.totp_pending ? openTotp(key, user.id, row.totp_pending) : undefined;
  const step = secret === undefined ? undefined : matchingStep(secret, user.email, code, now);
  if (secret === undefined || step === undefined) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'code',
        rule: 'totp',
        message: 'That code is not right; enter the newest code the app shows',
      },
    ]);
  }
  return db.transaction().execute(async (tx) => {
    await repo.updateUser(tx, user.id, {
      totp_secret: sealTotp(key, user.id, secret),
      totp_pending: null,
      totp_last_step: step,
    });
    const codes = await replaceRecoveryCodes(tx, user.id, now);
    const actor = { id: user.id, email: user.email };
    await audit(tx, user.accountId, { actor, now }, 'user.totp_enabled', user.email);
    return codes;
  });
}

/**
 * Turns two-factor off, for the password or a current code from the app: a session alone (a laptop
 * left open, a stolen cookie) must not be enough to remove the second factor.
 */
export async function disableTotp(
  db: Kysely<Database>,
  key: SecretKey | undefined,
  user: User,
  proof: string,
  now: Date,
) {
  const row = await repo.findUserById(db, user.id);
  const proven =
    row !== undefined &&
    (isAppCode(proof)
      ? await acceptAppCode(db, key, row, proof, now)
      : row.password_hash !== null && (await verifyPassword(proof, row.password_hash)));
  if (!proven) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'confirm',
        rule: 'mismatch',
        message: 'Enter your password, or a code from your authenticator app that was not used yet',
      },
    ]);
  }
  await db.transaction().execute(async (tx) => {
    await repo.updateUser(tx, user.id, { totp_secret: null, totp_pending: null, totp_last_step: null });
    await removeRecoveryCodes(tx, user.id);
    const actor = { id: user.id, email: user.email };
    await audit(tx, user.accountId, { actor, now }, 'user.totp_disabled', user.email);
  });
}

/**
 * The second step of a sign-in: a code from the app (each accepted once), or one of the user's
 * recovery codes (spent). Says which, for the audit log; undefined when neither.
 */
export async function verifySecondFactor(
  db: Kysely<Database>,
  key: SecretKey | undefined,
  user: User,
  code: string,
  now: Date,
): Promise<'app' | 'recovery code' | undefined> {
  const row = await repo.findUserById(db, user.id);
  if (!row?.totp_secret) return undefined;
  if (isAppCode(code)) return (await acceptAppCode(db, key, row, code, now)) ? 'app' : undefined;
  return (await useRecoveryCode(db, user, code, now)) ? 'recovery code' : undefined;
}

/** A code of the current secret whose time step is later than the last one used; it is now used. */
async function acceptAppCode(
  db: Kysely<Database>,
  key: SecretKey | undefined,
  row: DashboardUserRow,
  code: string,
  now: Date,
): Promise<boolean> {
  if (!row.totp_secret) return false;
  const step = matchingStep(openTotp(key, row.id, row.totp_secret), row.email, code, now);
  return step !== undefined && (await repo.advanceTotpStep(db, row.id, step));
}
