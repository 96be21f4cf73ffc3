import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import type { SecretKey } from '../secrets/key.js';
import { isSealed, SealError, seal, unseal } from '../secrets/seal.js';
import * as repo from './repository.js';

/**
 * TOTP secrets are sealed at rest (AES-256-GCM, src/secrets/seal.ts) and bound to their user: a copy
 * of the database (a backup, a dump) does not hold a second factor. Earlier versions kept them in
 * clear; such a value is read as it is, and sealed at the next start.
 */
const context = (userId: string) => `dashboard_users.totp:${userId}`;

/** Sealed for the user's row; without a key (PostgreSQL without the variable) two-factor cannot start. */
export function sealTotp(key: SecretKey | undefined, userId: string, secret: string): string {
  if (!key) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'totp',
        rule: 'no_key',
        message:
          'Two-factor cannot be turned on yet: the server has no PAYDESK_ENCRYPTION_KEY to keep its secret encrypted. Ask the operator to set it.',
      },
    ]);
  }
  return seal(key, secret, context(userId));
}

export function openTotp(key: SecretKey | undefined, userId: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  if (!key) throw new SealError('A two-factor secret is sealed, and PAYDESK_ENCRYPTION_KEY is not set');
  return unseal(key, stored, context(userId));
}

/**
 * At start-up: seals what an earlier version stored in clear. Says how many users it sealed, and how
 * many it left in clear for want of a key.
 */
export async function sealClearTotpSecrets(db: Kysely<Database>, key: SecretKey | undefined) {
  const rows = await repo.usersWithClearTotp(db);
  if (!key) return { sealed: 0, left: rows.length };
  const sealIf = (id: string, value: string | null) =>
    value === null || isSealed(value) ? value : sealTotp(key, id, value);
  for (const row of rows) {
    // Compare-and-set: a user who changed two-factor meanwhile keeps what they set.
    await repo.replaceTotpValues(db, row.id, row, {
      totp_secret: sealIf(row.id, row.totp_secret),
      totp_pending: sealIf(row.id, row.totp_pending),
    });
  }
  return { sealed: rows.length, left: 0 };
}
