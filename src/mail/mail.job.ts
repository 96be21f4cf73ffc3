import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ensureEventCursor } from '../events/cursor.js';
import type { Job } from '../jobs/job.js';
import type { NetworkRegistry } from '../networks/network.js';
import type { SecretKey } from '../secrets/key.js';
import { SealError } from '../secrets/seal.js';
import { openClaimUrl } from './claim.js';
import { type ClaimedMail, claimDueMail, recordMailOutcome, releaseMail } from './delivery.repository.js';
import { mailFacts } from './facts.js';
import { mailFanOutRound } from './fan-out.repository.js';
import { afterFailure, MAIL_RETRY_MS } from './schedule.js';
import type { MailSender } from './sender.js';
import { renderMail } from './templates/render.js';

export interface MailTuning {
  /** Pauses after failed attempts (schedule.ts); the last one spent, the mail is given up. */
  retryMs: readonly number[];
  /** How long a lease holds: well over the SMTP timeouts, so a live worker never loses a mail mid-send. */
  leaseMs: number;
  pollIntervalMs: number;
  /** Mails sent at once per round. */
  batch: number;
  /** Events older than this make no mail (mail was off, or the workers down, that long). */
  maxEventAgeMs: number;
}

export const DEFAULT_MAIL_TUNING: MailTuning = {
  retryMs: MAIL_RETRY_MS,
  leaseMs: 120_000,
  pollIntervalMs: 1_000,
  batch: 10,
  maxEventAgeMs: 86_400_000,
};

/** Events fanned out into mail per round. */
const FAN_OUT_BATCH = 500;

export interface MailJobDeps {
  db: Kysely<Database>;
  sender: MailSender;
  networks: NetworkRegistry;
  /** Opens the claim links that refunds sealed (src/secrets); undefined: none can be opened. */
  secretKey: SecretKey | undefined;
  log: FastifyBaseLogger;
  clock: () => Date;
  tuning?: Partial<MailTuning> | undefined;
}

/**
 * Sends the mail outbox (contract §25), in a worker, never in a request. Each round turns new events
 * into mails (fan-out.repository.ts), leases what is due (committed), sends outside any transaction,
 * and records each outcome under the lease. Exactly once in effect: a mail is marked sent right after
 * the server accepts it; only a crash between the two sends it again, once, with the same Message-ID.
 */
export function mailJob(deps: MailJobDeps): Job {
  const tuning = { ...DEFAULT_MAIL_TUNING, ...deps.tuning };
  const log = deps.log.child({ job: 'mail' });
  const run: Job['run'] = async ({ signal }) => {
    const since = new Date(deps.clock().getTime() - tuning.maxEventAgeMs);
    let round = await mailFanOutRound(deps.db, { limit: FAN_OUT_BATCH, since, now: deps.clock() });
    if (round === undefined && (await ensureEventCursor(deps.db, 'mail_fan_out'))) {
      round = await mailFanOutRound(deps.db, { limit: FAN_OUT_BATCH, since, now: deps.clock() });
    }
    const now = deps.clock();
    const leased = await claimDueMail(deps.db, {
      now,
      leaseUntil: new Date(now.getTime() + tuning.leaseMs),
      limit: tuning.batch,
    });
    await Promise.all(leased.map((mail) => sendOne(deps, tuning, log, mail, signal)));
    return leased.length === tuning.batch || round?.events === FAN_OUT_BATCH;
  };
  return {
    name: 'mail',
    intervalMs: tuning.pollIntervalMs,
    // New events wake the webhook workers and this job alike (migration 0009's events_wake); a
    // refund's claim mail waits at most a poll interval.
    wakeOn: 'paydesk_webhooks',
    wakeDelayMs: 50,
    run,
    async drain() {
      deps.sender.close();
    },
  };
}

async function sendOne(
  deps: MailJobDeps,
  tuning: MailTuning,
  log: FastifyBaseLogger,
  mail: ClaimedMail,
  signal: AbortSignal,
): Promise<void> {
  const fields = { mail: mail.id, kind: mail.kind, invoice: mail.invoice_id, attempt: mail.attempts };
  try {
    if (signal.aborted) return await releaseMail(deps.db, mail, deps.clock());
    const failure = await attempt(deps, mail);
    const now = deps.clock();
    if (!failure) {
      await recordMailOutcome(deps.db, mail, { status: 'sent' }, now);
      log.info(fields, 'mail sent');
      return;
    }
    const outcome = afterFailure(mail.attempts, failure, now, tuning.retryMs);
    await recordMailOutcome(deps.db, mail, outcome, now);
    const next = outcome.status === 'pending' ? outcome.nextAttemptAt.toISOString() : null;
    log.warn(
      { ...fields, outcome: outcome.status, next_attempt_at: next, reason: failure.error },
      'mail not sent',
    );
  } catch (err) {
    // Nothing recorded: the lease lapses and the mail is tried again.
    log.error({ ...fields, err }, 'mail attempt could not be recorded');
  }
}

/** Renders and sends one mail; a claim link that does not open fails it for good (and says why). */
async function attempt(deps: MailJobDeps, mail: ClaimedMail) {
  let claimUrl: string | null;
  try {
    claimUrl = openClaimUrl(mail, deps.secretKey);
  } catch (err) {
    if (err instanceof SealError) return { permanent: true, error: err.message };
    throw err;
  }
  const rendered = renderMail({ ...mailFacts(mail, deps.networks), claimUrl });
  return deps.sender.send({ id: mail.id, to: mail.recipient, ...rendered });
}
