import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { afterAttempt, MAX_ATTEMPTS, RETRY_DELAYS_MS, verdict } from './schedule.js';

describe('verdict', () => {
  test.each([
    [200, 'succeeded'],
    [204, 'succeeded'],
    [299, 'succeeded'],
    [null, 'retryable'],
    [408, 'retryable'],
    [429, 'retryable'],
    [500, 'retryable'],
    [503, 'retryable'],
    [301, 'permanent'],
    [302, 'permanent'],
    [400, 'permanent'],
    [401, 'permanent'],
    [404, 'permanent'],
    [410, 'permanent'],
    [100, 'permanent'],
  ] as const)('%s → %s', (status, expected) => {
    expect(verdict(status)).toBe(expected);
  });
});

describe('afterAttempt', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');

  test('retries follow 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h within ±20 %', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (n, r) => {
          const out = afterAttempt(n, 'retryable', now, () => r);
          expect(out.status).toBe('pending');
          const delay = (out.nextAttemptAt as Date).getTime() - now.getTime();
          const planned = RETRY_DELAYS_MS[n - 1] as number;
          expect(delay).toBeGreaterThanOrEqual(Math.floor(planned * 0.8));
          expect(delay).toBeLessThanOrEqual(Math.ceil(planned * 1.2));
        },
      ),
    );
    expect(RETRY_DELAYS_MS).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
  });

  test(`the ${MAX_ATTEMPTS}th failure, and any permanent one, ends the delivery`, () => {
    expect(afterAttempt(MAX_ATTEMPTS, 'retryable', now)).toEqual({ status: 'failed', nextAttemptAt: null });
    expect(afterAttempt(1, 'permanent', now)).toEqual({ status: 'failed', nextAttemptAt: null });
    expect(afterAttempt(3, 'succeeded', now)).toEqual({ status: 'succeeded', nextAttemptAt: null });
  });
});
