import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Job } from '../jobs/job.js';
import { purgeIdempotencyKeys } from './idempotency.js';
import { expireDue } from './observe.js';

const EXPIRY_BATCH = 500;

export interface InvoiceJobDeps {
  db: Kysely<Database>;
  publicBaseUrl: string;
  clock: () => Date;
}

/**
 * Expires overdue invoices within about a second of their deadline, whether or not any request
 * touches them. Safe on any number of instances (see expireDue); the deadline lives in the row, so
 * nothing is lost across restarts.
 */
export function expiryJob({ db, publicBaseUrl, clock }: InvoiceJobDeps): Job {
  return {
    name: 'invoice-expiry',
    intervalMs: 1000,
    run: async () => (await expireDue(db, { now: clock(), publicBaseUrl }, EXPIRY_BATCH)) === EXPIRY_BATCH,
  };
}

/** Idempotency keys are kept 24 h (contract §4), then purged; harmless on every instance at once. */
export function idempotencyPurgeJob({ db, clock }: InvoiceJobDeps): Job {
  return {
    name: 'idempotency-purge',
    intervalMs: 60 * 60 * 1000,
    run: async () => {
      await purgeIdempotencyKeys(db, clock());
      return false;
    },
  };
}
