/**
 * When to ask again, and after how long; stripe-node's policy, written for Paydesk. Every create
 * carries an idempotency key, so asking again never makes a second invoice.
 */
export const INITIAL_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** A Retry-After longer than this is not waited for inside a call: the error goes to the caller. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/**
 * 409: another request holds the same idempotency key (Paydesk waits for it itself, a proxy may not);
 * 429: rate limited, the window resets soon; 5xx: Paydesk or something in front of it failed, and the
 * request may or may not have been carried out, which the idempotency key makes harmless. Any other
 * 4xx would fail the same way again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 409 || status === 429 || status >= 500;
}

/**
 * Exponential backoff with "equal jitter": the n-th retry waits between half and all of
 * min(500 ms × 2^(n-1), 8 s), so clients that failed together do not come back together.
 */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(INITIAL_DELAY_MS * 2 ** (retry - 1), MAX_DELAY_MS);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The wait before the n-th retry: never sooner than Retry-After; undefined when that is too long. */
export function retryDelayMs(
  retry: number,
  retryAfterSeconds: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterSeconds !== undefined && retryAfterSeconds > MAX_RETRY_AFTER_SECONDS) return undefined;
  return Math.max((retryAfterSeconds ?? 0) * 1000, backoffMs(retry, random));
}

/** Retry-After in seconds (RFC 9110 delay-seconds). HTTP dates are not sent by Paydesk and are ignored. */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (value == null || !/^\s*\d{1,9}\s*$/.test(value)) return undefined;
  return Number.parseInt(value, 10);
}
