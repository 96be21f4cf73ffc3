import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { IDEMPOTENCY_RETENTION_MS } from '../invoices/idempotency.js';
import type { Job } from '../jobs/job.js';
import { purgeKeys } from './idempotency.repository.js';

/** Refund creates' Idempotency-Keys, kept 24 h as invoices' are (contract §4), then purged. */
export function refundKeyPurgeJob({ db, clock }: { db: Kysely<Database>; clock: () => Date }): Job {
  return {
    name: 'refund-idempotency-purge',
    intervalMs: 60 * 60 * 1000,
    run: async () => {
      await purgeKeys(db, new Date(clock().getTime() - IDEMPOTENCY_RETENTION_MS));
      return false;
    },
  };
}
