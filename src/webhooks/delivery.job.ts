import { setMaxListeners } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Job } from '../jobs/job.js';
import { type ClaimedDelivery, claimDue, recordAttempt, releaseLease } from './delivery.repository.js';
import { FAN_OUT_BATCH, fanOut } from './fan-out.js';
import { failureReason } from './reason.js';
import { WEBHOOK_CHANNEL } from './repository.js';
import { afterAttempt, verdict } from './schedule.js';
import { send } from './sender.js';
import { signatureHeaders } from './signing.js';

export interface DeliveryTuning {
  /** A 2xx must arrive within this (contract §10: 15 s). */
  timeoutMs: number;
  /** How long a claim holds; well over the timeout, so a live worker never loses its claim mid-send. */
  leaseMs: number;
  pollIntervalMs: number;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** Deliveries in flight at once to one endpoint, per instance. */
  perEndpoint: number;
  /** On stop, how long in-flight deliveries may finish before they are handed back to another instance. */
  shutdownGraceMs: number;
}

export const DEFAULT_TUNING: DeliveryTuning = {
  timeoutMs: 15_000,
  leaseMs: 60_000,
  pollIntervalMs: 1_000,
  concurrency: 32,
  perEndpoint: 4,
  shutdownGraceMs: 5_000,
};

export interface DeliveryDeps {
  db: Kysely<Database>;
  config: Config;
  log: FastifyBaseLogger;
  clock: () => Date;
  tuning?: Partial<DeliveryTuning> | undefined;
}

/**
 * Sends the webhook outbox. Each round claims what is due (a committed lease), then POSTs outside any
 * transaction, concurrently; each attempt's outcome is written when it ends, and a freed slot wakes
 * the job for the next. All state is in the database: a crashed instance's leases lapse and another
 * instance sends those deliveries again. Each round first fans new events out into deliveries
 * (fan-out.ts). New events and new deliveries wake every instance at once (WEBHOOK_CHANNEL).
 */
export function deliveryJob(deps: DeliveryDeps): Job {
  const tuning = { ...DEFAULT_TUNING, ...deps.tuning };
  const clock = deps.clock;
  const inFlight = new Map<string, Promise<void>>();
  const busy = new Map<string, number>();
  const track = (endpointId: string, delta: number) => {
    const n = (busy.get(endpointId) ?? 0) + delta;
    if (n > 0) busy.set(endpointId, n);
    else busy.delete(endpointId);
  };
  const shutdown = new AbortController();
  // Every delivery in flight listens for shutdown: that many listeners is the design, not a leak.
  setMaxListeners(tuning.concurrency + 10, shutdown.signal);
  const deliver = deliverer(deps, tuning, clock, shutdown.signal);

  const run: Job['run'] = async ({ wake }) => {
    // New events first: their deliveries are then claimed in this same round.
    const fanned = await fanOut(deps.db);
    const room = tuning.concurrency - inFlight.size;
    if (room <= 0 || shutdown.signal.aborted) return fanned === FAN_OUT_BATCH;
    const now = clock();
    const claimed = await claimDue(deps.db, {
      now,
      leaseUntil: new Date(now.getTime() + tuning.leaseMs),
      limit: room,
      perEndpoint: tuning.perEndpoint,
      busy,
      inFlight: [...inFlight.keys()],
    });
    for (const delivery of claimed) {
      track(delivery.endpoint_id, 1);
      const done = deliver(delivery).finally(() => {
        inFlight.delete(delivery.id);
        track(delivery.endpoint_id, -1);
        // A slot is free: what waited for it (this endpoint's next delivery, say) goes now, not at the next poll.
        wake();
      });
      inFlight.set(delivery.id, done);
    }
    return claimed.length === room || fanned === FAN_OUT_BATCH;
  };

  return {
    name: 'webhook-delivery',
    intervalMs: tuning.pollIntervalMs,
    wakeOn: WEBHOOK_CHANNEL,
    // Every new event notifies: under a burst of creates, one round per 50 ms fans them all out,
    // rather than a round per create statement. The first attempt still follows within 50 ms.
    wakeDelayMs: 50,
    run,
    // Sends in flight may finish within the grace; those still going are aborted, and their leases
    // handed back so that any instance sends them at once.
    async drain() {
      const grace = new Promise((resolve) => setTimeout(resolve, tuning.shutdownGraceMs).unref());
      await Promise.race([Promise.allSettled(inFlight.values()), grace]);
      shutdown.abort();
      await Promise.allSettled(inFlight.values());
    },
  };
}

function deliverer(deps: DeliveryDeps, tuning: DeliveryTuning, clock: () => Date, shutdown: AbortSignal) {
  const userAgent = `Paydesk-Webhooks/${deps.config.version}`;
  return async (delivery: ClaimedDelivery): Promise<void> => {
    const attempt = delivery.attempts + 1;
    const startedAt = clock();
    const log = deps.log.child({
      delivery: delivery.id,
      event: delivery.event_id,
      endpoint: delivery.endpoint_id,
    });
    try {
      const headers = {
        ...signatureHeaders(
          delivery.previous_secret ? [delivery.secret, delivery.previous_secret] : delivery.secret,
          delivery.event_id,
          startedAt,
          delivery.body,
        ),
        'content-type': 'application/json',
        'user-agent': userAgent,
      };
      const result = await send(delivery.url, headers, delivery.body, {
        allowPrivate: deps.config.webhookAllowPrivate,
        timeoutMs: tuning.timeoutMs,
        signal: shutdown,
      });
      if (result.status === null && shutdown.aborted) {
        await releaseLease(deps.db, delivery);
        return;
      }
      const outcome = afterAttempt(attempt, verdict(result.status), clock());
      await recordAttempt(deps.db, {
        delivery,
        attempt,
        startedAt,
        durationMs: result.durationMs,
        responseStatus: result.status,
        error: result.error,
        ...outcome,
        now: clock(),
      });
      const fields = { attempt, response_status: result.status, duration_ms: result.durationMs };
      if (outcome.status === 'succeeded') {
        log.debug({ ...fields, outcome: outcome.status }, 'webhook attempt');
        return;
      }
      // Every failure at warn, a retry to come or not: a receiver that stopped answering is the
      // operator's to see before the last attempt, and the reason says what to change.
      log.warn(
        {
          ...fields,
          outcome: outcome.status === 'pending' ? 'retrying' : 'failed',
          next_attempt_at: outcome.nextAttemptAt?.toISOString() ?? null,
          reason: failureReason(result.status, result.error),
        },
        'webhook attempt failed',
      );
    } catch (err) {
      // Nothing recorded: the lease lapses and the attempt is made again (at least once).
      log.error({ err, attempt }, 'webhook attempt could not be recorded');
    }
  };
}
