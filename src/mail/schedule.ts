import type { MailOutcome } from './delivery.repository.js';

/**
 * Pauses after each failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h, 12 h (±20 %); a mail still not
 * accepted after the last is given up (about 21 hours after the first attempt). Receipts that arrive
 * a day late help nobody, and an SMTP outage longer than that is the operator's to see in the log.
 */
export const MAIL_RETRY_MS: readonly number[] = [
  60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000,
];

/** What follows attempt number `attempt`, given how it failed. */
export function afterFailure(
  attempt: number,
  failure: { permanent: boolean; error: string },
  now: Date,
  retryMs: readonly number[] = MAIL_RETRY_MS,
  random = Math.random,
): MailOutcome {
  const pause = retryMs[attempt - 1];
  if (failure.permanent || pause === undefined) return { status: 'failed', error: failure.error };
  const jittered = Math.round(pause * (0.8 + random() * 0.4));
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + jittered), error: failure.error };
}
