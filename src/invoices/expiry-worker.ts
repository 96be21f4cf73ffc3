import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { pollLoop, type Worker } from '../workers/loop.js';
import { expireDue } from './transition.js';

const BATCH = 500;
const INTERVAL_MS = 1000;

/**
 * Expires overdue invoices within about a second of their deadline, whether or not any request
 * touches them. Safe on any number of instances (see expireDue); the deadline lives in the row, so
 * nothing is lost across restarts.
 */
export function startExpiryWorker(deps: {
  db: Kysely<Database>;
  publicBaseUrl: string;
  log: FastifyBaseLogger;
  clock?: () => Date;
}): Worker {
  const clock = deps.clock ?? (() => new Date());
  return pollLoop(
    'expiry',
    INTERVAL_MS,
    async () => (await expireDue(deps.db, clock(), BATCH, deps.publicBaseUrl)) === BATCH,
    deps.log,
  );
}
