import type { Kysely } from 'kysely';
import * as OTPAuth from 'otpauth';
import { audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { removeRecoveryCodes, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.js';
import * as repo from './repository.js';

/** RFC 6238 defaults every authenticator app reads: SHA-1, 6 digits, 30 s; one step either side. */
function totp(secret: string, email: string) {
  return new OTPAuth.TOTP({
    issuer: 'Paydesk',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

function matches(secret: string, email: string, code: string, now: Date): boolean {
  if (!/^\d{6}$/.test(code.trim())) return false;
  return totp(secret, email).validate({ token: code.trim(), timestamp: now.getTime(), window: 1 }) !== null;
}

/** Starts enrolment: a new secret waits, unconfirmed, until a code from it is entered. */
export async function beginTotp(db: Kysely<Database>, user: { id: string; email: string }) {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await repo.updateUser(db, user.id, { totp_pending: secret });
  return { secret, uri: totp(secret, user.email).toString() };
}

export async function pendingTotp(db: Kysely<Database>, user: { id: string; email: string }) {
  const row = await repo.findUserByEmail(db, user.email);
  if (!row?.totp_pending) return undefined;
  return { secret: row.totp_pending, uri: totp(row.totp_pending, user.email).toString() };
}

/**
 * Confirms enrolment with a code from the app; only then does sign-in ask for codes. Returns the new
 * recovery codes, to be shown this once.
 */
export async function confirmTotp(
  db: Kysely<Database>,
  user: { id: string; email: string; accountId: string },
  code: string,
  now: Date,
) {
  const row = await repo.findUserByEmail(db, user.email);
  if (!row?.totp_pending || !matches(row.totp_pending, user.email, code, now)) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'code',
        rule: 'totp',
        message: 'That code is not right; enter the newest code the app shows',
      },
    ]);
  }
  const secret = row.totp_pending;
  return db.transaction().execute(async (tx) => {
    await repo.updateUser(tx, user.id, { totp_secret: secret, totp_pending: null });
    const codes = await replaceRecoveryCodes(tx, user.id, now);
    await audit(
      tx,
      user.accountId,
      { actor: { id: user.id, email: user.email }, now },
      'user.totp_enabled',
      user.email,
    );
    return codes;
  });
}

export async function disableTotp(
  db: Kysely<Database>,
  user: { id: string; email: string; accountId: string },
  now: Date,
) {
  await db.transaction().execute(async (tx) => {
    await repo.updateUser(tx, user.id, { totp_secret: null, totp_pending: null });
    await removeRecoveryCodes(tx, user.id);
    await audit(
      tx,
      user.accountId,
      { actor: { id: user.id, email: user.email }, now },
      'user.totp_disabled',
      user.email,
    );
  });
}

/**
 * The second step of a sign-in: a code from the app, or one of the user's recovery codes (spent).
 * Says which, for the audit log; undefined when neither.
 */
export async function verifySecondFactor(
  db: Kysely<Database>,
  user: { id: string; email: string; accountId: string },
  code: string,
  now: Date,
): Promise<'app' | 'recovery code' | undefined> {
  const row = await repo.findUserById(db, user.id);
  if (!row?.totp_secret) return undefined;
  if (matches(row.totp_secret, row.email, code, now)) return 'app';
  return (await useRecoveryCode(db, user, code, now)) ? 'recovery code' : undefined;
}
