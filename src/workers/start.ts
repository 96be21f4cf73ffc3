import type { FastifyBaseLogger } from 'fastify';
import { startChainWatchers } from '../chains/start.js';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { startExpiryWorker } from '../invoices/expiry-worker.js';
import { purgeIdempotencyKeys } from '../invoices/idempotency.js';
import { startDeliveryWorker } from '../webhooks/delivery-worker.js';
import { pollLoop, type Worker } from './loop.js';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/** Every background worker of an instance; main.ts runs them unless PAYDESK_ROLE=api. */
export async function startWorkers(deps: {
  database: DatabaseHandle;
  config: Config;
  log: FastifyBaseLogger;
  clock?: () => Date;
}): Promise<Worker[]> {
  const { database, config, log, clock } = deps;
  const now = clock ?? (() => new Date());
  return [
    ...(await startChainWatchers({ database, config, log, clock })),
    startExpiryWorker({ db: database.db, publicBaseUrl: config.publicBaseUrl, log, clock }),
    await startDeliveryWorker({ db: database.db, notifier: database.notifier, config, log, clock }),
    // Idempotency keys are kept 24 h, then purged; running this on every instance is harmless.
    pollLoop(
      'idempotency-purge',
      PURGE_EVERY_MS,
      async () => {
        await purgeIdempotencyKeys(database.db, now());
        return false;
      },
      log,
    ),
  ];
}

export async function stopWorkers(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.stop()));
}
