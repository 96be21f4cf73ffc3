import type { FastifyBaseLogger } from 'fastify';
import { chainScanJobs } from './chains/scan.job.js';
import { collectorJobs } from './collections/collector.job.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { expiryJob, idempotencyPurgeJob } from './invoices/jobs.js';
import type { Job } from './jobs/job.js';
import { advisoryLeadership, soleLeader } from './jobs/leadership.js';
import { type RunningJobs, startJobs } from './jobs/runner.js';
import { type MailTuning, mailJob } from './mail/mail.job.js';
import { smtpSender } from './mail/sender.js';
import { refundKeyPurgeJob } from './refunds/jobs.js';
import { loadSecretKey } from './secrets/key.js';
import { solanaScanJobs } from './solana/scan.job.js';
import { type DeliveryTuning, deliveryJob } from './webhooks/delivery.job.js';

export interface WorkerDeps {
  database: DatabaseHandle;
  config: Config;
  log: FastifyBaseLogger;
  /** The current time; a parameter so that tests can move it. */
  clock?: (() => Date) | undefined;
  /** Run only the jobs of these names (a test of one job); all of them by default. */
  only?: readonly string[] | undefined;
  deliveryTuning?: Partial<DeliveryTuning> | undefined;
  mailTuning?: Partial<MailTuning> | undefined;
}

/** How long one SMTP step (connect, greeting, each command) may take before the attempt fails. */
const SMTP_TIMEOUT_MS = 15_000;

/**
 * Every background job of an instance, in one place (as app.ts is for routes): invoice expiry, the
 * idempotency-key purge, webhook delivery and a watcher per chain network. main.ts starts them unless
 * PAYDESK_ROLE=api; each is safe on any number of instances (see each job).
 */
export async function startWorkers(deps: WorkerDeps): Promise<RunningJobs> {
  const { database, config, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const common = { db: database.db, publicBaseUrl: config.publicBaseUrl, clock };
  const all: Job[] = [
    expiryJob(common),
    idempotencyPurgeJob(common),
    refundKeyPurgeJob(common),
    deliveryJob({ db: database.db, config, log, clock, tuning: deps.deliveryTuning }),
    ...(await chainScanJobs({ ...common, networks: config.networks })),
    ...solanaScanJobs({ ...common, networks: config.networks }),
    ...(await collectorJobs({
      db: database.db,
      networks: config.networks,
      collectorKey: config.collectorKey,
      minUsd: config.collectMinUsd,
      minDepositUsd: config.collectMinDepositUsd,
      replaceBlocks: config.collectReplaceBlocks,
      maxFeeGwei: config.collectMaxFeeGwei,
      clock,
      log,
    })),
    // E-mail only with SMTP_URL (contract §25): without it no job, so nothing is queued or sent.
    ...(config.mail
      ? [
          mailJob({
            db: database.db,
            sender: smtpSender(config.mail, SMTP_TIMEOUT_MS),
            networks: config.networks,
            secretKey: loadSecretKey(config)?.key,
            log,
            clock,
            tuning: deps.mailTuning,
          }),
        ]
      : []),
  ];
  const jobs = deps.only ? all.filter((job) => deps.only?.includes(job.name)) : all;
  const leadership =
    database.kind === 'postgres'
      ? advisoryLeadership(config.databaseUrl, database.bounds ?? config.databaseBounds)
      : soleLeader;
  return startJobs(jobs, { notifier: database.notifier, leadership, log });
}
