import { createHash, randomBytes } from 'node:crypto';
import { base32 } from '@scure/base';
import type { Kysely, Transaction } from 'kysely';
import { audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { verifyPassword } from './password.js';
import * as codes from './recovery-codes.repository.js';
import * as repo from './repository.js';

/**
 * Two-factor recovery codes, for a user without their phone: ten, shown once when two-factor is
 * turned on or the codes are renewed, each good for one sign-in in place of an app's code. A code is
 * 80 random bits (16 base32 characters, written in groups of four), so its plain SHA-256 is all the
 * database needs: no guess against a stolen table can succeed, and no key is involved that could be lost.
 */
export const RECOVERY_CODE_COUNT = 10;
const SHAPE = /^[a-z2-7]{16}$/;

function newCode(): string {
  const text = base32.encode(randomBytes(10)).toLowerCase();
  return text.match(/.{4}/g)?.join('-') ?? text;
}

/** Case, spaces and dashes do not matter when a code is typed in. */
function normalise(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '');
}

const hash = (normalised: string) => createHash('sha256').update(normalised).digest();

export function looksLikeRecoveryCode(input: string): boolean {
  return SHAPE.test(normalise(input));
}

/** New codes in place of all the user's old ones; returned this once. */
export async function replaceRecoveryCodes(tx: Transaction<Database>, userId: string, now: Date) {
  const fresh = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await codes.deleteCodes(tx, userId);
  await codes.insertCodes(
    tx,
    userId,
    fresh.map((c) => hash(normalise(c))),
    now,
  );
  return fresh;
}

export function removeRecoveryCodes(tx: Transaction<Database>, userId: string) {
  return codes.deleteCodes(tx, userId);
}

/** Spends one of the user's codes; false when it is not one, or was used already. */
export async function useRecoveryCode(
  db: Kysely<Database>,
  user: { id: string; email: string; accountId: string },
  input: string,
  now: Date,
): Promise<boolean> {
  const code = normalise(input);
  if (!SHAPE.test(code)) return false;
  return db.transaction().execute(async (tx) => {
    if (!(await codes.useCode(tx, user.id, hash(code), now))) return false;
    const left = await codes.countUnused(tx, user.id);
    const actor = { id: user.id, email: user.email };
    await audit(tx, user.accountId, { actor, now }, 'user.recovery_code_used', `${left} left`);
    return true;
  });
}

export function recoveryCodesLeft(db: Kysely<Database>, userId: string) {
  return codes.countUnused(db, userId);
}

/** New codes on request: the password is asked again, as a session alone is not enough for this. */
export async function renewRecoveryCodes(
  db: Kysely<Database>,
  user: { id: string; email: string; accountId: string },
  password: string,
  now: Date,
): Promise<string[]> {
  const row = await repo.findUserById(db, user.id);
  if (!row?.password_hash || !(await verifyPassword(password, row.password_hash))) {
    throw ApiError.validation([
      { in: 'body', field: 'current_password', rule: 'mismatch', message: 'The password is not right' },
    ]);
  }
  if (!row.totp_secret) {
    throw ApiError.validation([
      { in: 'body', field: 'current_password', rule: 'totp_off', message: 'Turn on two-factor first' },
    ]);
  }
  return db.transaction().execute(async (tx) => {
    const fresh = await replaceRecoveryCodes(tx, user.id, now);
    const actor = { id: user.id, email: user.email };
    await audit(tx, user.accountId, { actor, now }, 'user.recovery_codes_renewed', user.email);
    return fresh;
  });
}
