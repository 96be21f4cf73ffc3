import { hash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { explainedFormat } from '../http/validation.js';

/** Keys are kept at least this long (contract §4), then purged. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Contract §4: 1 to 255 visible ASCII characters. */
export const idempotencyKeyFormat = explainedFormat('idempotency-key', (value, field) =>
  /^[\x21-\x7e]{1,255}$/.test(value)
    ? { ok: true }
    : {
        ok: false,
        rule: 'format',
        message: `${field} must be 1 to 255 visible ASCII characters (no spaces)`,
      },
);

/** An Idempotency-Key sent again with another request than the one that first used it. */
export function reusedKeyError(what: 'invoice' | 'refund'): ApiError {
  return ApiError.validation([
    {
      in: 'header',
      field: 'Idempotency-Key',
      rule: 'reused_with_different_request',
      message: `This Idempotency-Key was already used with a different request; use a new key for a new ${what}`,
    },
  ]);
}

/**
 * Two requests are "the same" when their normalised bodies are: "10" and "10.00" match, and metadata
 * key order does not matter.
 */
export function requestFingerprint(input: {
  amount: string;
  order_id?: string | undefined;
  description?: string | undefined;
  metadata: Record<string, string>;
  redirect_url?: string | null | undefined;
  cancel_url?: string | null | undefined;
  network?: string | undefined;
}): string {
  const metadata = Object.keys(input.metadata)
    .sort()
    .map((k) => [k, input.metadata[k]]);
  // The return URLs are appended only when given, so a request without them keeps the fingerprint it
  // had before they existed (keys claimed before an upgrade still replay).
  const urls =
    input.redirect_url || input.cancel_url ? [input.redirect_url ?? null, input.cancel_url ?? null] : [];
  // The network likewise (contract §15); the arrays' lengths keep the URLs and the network apart.
  const network = input.network === undefined ? [] : [input.network];
  // The description likewise, tagged: its presence or absence is told apart from the others'.
  const description = input.description === undefined ? [] : [{ description: input.description }];
  const canonical = JSON.stringify([
    input.amount,
    input.order_id ?? null,
    metadata,
    ...urls,
    ...network,
    ...description,
  ]);
  return hash('sha256', canonical, 'base64url');
}

export async function purgeIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
