import type { PinFailureRow } from './till.table.js';

/**
 * PIN attempts (docs/pos.md): 5 attempts in 15 minutes per till and per client address, then that
 * till (or address) is locked for 15 minutes. An attempt is counted BEFORE its PIN is checked (and
 * uncounted by a right PIN, which clears both counters), so a burst of parallel guesses cannot
 * slip past the limit while the first ones are still being hashed. Time is a parameter.
 */
export interface LockoutRule {
  limit: number;
  windowMs: number;
  lockMs: number;
}

export const PIN_LOCKOUT: LockoutRule = { limit: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

export type Admission =
  | { allowed: true; row: Omit<PinFailureRow, 'scope' | 'key'>; remaining: number }
  | { allowed: false; until: Date };

type Counter = Omit<PinFailureRow, 'scope' | 'key'>;

/** Whether one more attempt may be made against a counter, and the counter once it is counted. */
export function admit(row: Counter | undefined, now: Date, rule: LockoutRule): Admission {
  if (row?.locked_until && row.locked_until > now) return { allowed: false, until: row.locked_until };
  const fresh =
    !row || row.locked_until !== null || row.first_failed_at.getTime() + rule.windowMs <= now.getTime();
  const failures = fresh ? 1 : row.failures + 1;
  const next: Counter = {
    failures,
    first_failed_at: fresh ? now : row.first_failed_at,
    // The attempt that reaches the limit still gets its answer; the next one waits.
    locked_until: failures >= rule.limit ? new Date(now.getTime() + rule.lockMs) : null,
  };
  return { allowed: true, row: next, remaining: rule.limit - failures };
}
