import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { SecretKey } from '../secrets/key.js';
import { isSealed, seal, unseal } from '../secrets/seal.js';
import * as repo from './repository.js';

/**
 * TOTP secrets are sealed at rest (AES-256-GCM, src/secrets/seal.ts) and bound to their user: a copy
 * of the database (a backup, a dump) does not hold a second factor. Earlier versions kept them in
 * clear; such a value is read as it is, and sealed at the next start.
 */
const context = (userId: string) => `dashboard_users.totp:${userId}`;

export function sealTotp(key: SecretKey, userId: string, secret: string): string {
  return seal(key, secret, context(userId));
}

export function openTotp(key: SecretKey, userId: string, stored: string): string {
  return isSealed(stored) ? unseal(key, stored, context(userId)) : stored;
}

/** At start-up: seals what an earlier version stored in clear. Returns how many users it sealed. */
export async function sealClearTotpSecrets(db: Kysely<Database>, key: SecretKey): Promise<number> {
  const rows = await repo.usersWithClearTotp(db);
  const sealIf = (id: string, value: string | null) =>
    value === null || isSealed(value) ? value : sealTotp(key, id, value);
  for (const row of rows) {
    // Compare-and-set: a user who changed two-factor meanwhile keeps what they set.
    await repo.replaceTotpValues(db, row.id, row, {
      totp_secret: sealIf(row.id, row.totp_secret),
      totp_pending: sealIf(row.id, row.totp_pending),
    });
  }
  return rows.length;
}
