const FIRST_MS = 500;
const MAX_MS = 60_000;

/**
 * How long a job waits after `failures` failed rounds in a row: 0.5 s, 1 s, 2 s … up to a minute,
 * each ±25 %, so that instances recovering from the same outage (a database restart, a node down)
 * do not come back as one stampede.
 */
export function backoff(failures: number, random = Math.random): number {
  const base = Math.min(MAX_MS, FIRST_MS * 2 ** Math.min(Math.max(failures, 1) - 1, 10));
  return Math.round(base * (0.75 + random() * 0.5));
}
