/**
 * When a delivery is tried again (contract §10). Only failures that may heal are retried: the network,
 * a timeout, 408, 429 and 5xx. Any other 4xx means the receiver rejected this request as it is and
 * would reject it again; a 3xx is a failure too, because following redirects would let a receiver
 * send us to an address the SSRF guard never checked.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.2;

export type Verdict = 'succeeded' | 'retryable' | 'permanent';

/** `status` is null when no response came (network error, timeout, refused address). */
export function verdict(status: number | null): Verdict {
  if (status === null) return 'retryable';
  if (status >= 200 && status < 300) return 'succeeded';
  if (status === 408 || status === 429 || status >= 500) return 'retryable';
  return 'permanent';
}

export interface Outcome {
  status: 'succeeded' | 'pending' | 'failed';
  /** Set only when another attempt follows. */
  nextAttemptAt: Date | null;
}

/**
 * The delivery's state after attempt number `attempt` (1-based). Jitter of ±20 % spreads the retries
 * of many deliveries that failed together (a receiver's outage) so they do not return as one wave.
 */
export function afterAttempt(attempt: number, v: Verdict, now: Date, random = Math.random): Outcome {
  if (v === 'succeeded') return { status: 'succeeded', nextAttemptAt: null };
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (v === 'permanent' || delay === undefined) return { status: 'failed', nextAttemptAt: null };
  const jittered = delay * (1 - JITTER + 2 * JITTER * random());
  return { status: 'pending', nextAttemptAt: new Date(now.getTime() + Math.round(jittered)) };
}
