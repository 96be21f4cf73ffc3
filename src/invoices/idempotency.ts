import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
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

/**
 * Two requests are "the same" when their normalised bodies are: "10" and "10.00" match, and metadata
 * key order does not matter.
 */
export function requestFingerprint(input: {
  amount: string;
  order_id?: string | undefined;
  metadata: Record<string, string>;
}): string {
  const metadata = Object.keys(input.metadata)
    .sort()
    .map((k) => [k, input.metadata[k]]);
  const canonical = JSON.stringify([input.amount, input.order_id ?? null, metadata]);
  return createHash('sha256').update(canonical).digest('base64url');
}

export async function purgeIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS);
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
