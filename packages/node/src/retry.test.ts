import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  backoffMs,
  INITIAL_DELAY_MS,
  isRetryableStatus,
  MAX_DELAY_MS,
  MAX_RETRY_AFTER_SECONDS,
  parseRetryAfter,
  retryDelayMs,
} from './retry.js';

const retry = fc.integer({ min: 1, max: 60 });
const random = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('backoff', () => {
  test('the n-th retry waits between half and all of min(500 ms × 2^(n-1), 8 s)', () => {
    fc.assert(
      fc.property(retry, random, (n, r) => {
        const ceiling = Math.min(INITIAL_DELAY_MS * 2 ** (n - 1), MAX_DELAY_MS);
        const wait = backoffMs(n, () => r);
        return wait >= ceiling / 2 && wait <= ceiling;
      }),
    );
  });

  test('grows with each retry, up to 8 s', () => {
    fc.assert(fc.property(retry, (n) => backoffMs(n + 1, () => 0) >= backoffMs(n, () => 0)));
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0.999999))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });
});

describe('the wait before a retry', () => {
  test('is never shorter than Retry-After', () => {
    fc.assert(
      fc.property(retry, fc.integer({ min: 0, max: MAX_RETRY_AFTER_SECONDS }), random, (n, after, r) => {
        const wait = retryDelayMs(n, after, () => r);
        return wait !== undefined && wait >= after * 1000 && wait <= Math.max(after * 1000, MAX_DELAY_MS);
      }),
    );
  });

  test('is undefined (give up) when Retry-After is over a minute', () => {
    fc.assert(
      fc.property(
        retry,
        fc.integer({ min: MAX_RETRY_AFTER_SECONDS + 1 }),
        (n, after) => retryDelayMs(n, after) === undefined,
      ),
    );
  });

  test('is the backoff when there is no Retry-After', () => {
    fc.assert(
      fc.property(retry, random, (n, r) => retryDelayMs(n, undefined, () => r) === backoffMs(n, () => r)),
    );
  });
});

describe('Retry-After', () => {
  test('delay-seconds are read as a number of seconds', () => {
    fc.assert(fc.property(fc.nat({ max: 999_999_999 }), (n) => parseRetryAfter(String(n)) === n));
    expect(parseRetryAfter(' 7 ')).toBe(7);
  });

  test('anything else is ignored, never NaN or negative', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const parsed = parseRetryAfter(value);
        return parsed === undefined
          ? !/^\s*\d{1,9}\s*$/.test(value)
          : Number.isInteger(parsed) && parsed >= 0;
      }),
    );
    for (const value of [
      null,
      undefined,
      '',
      '-1',
      '1.5',
      'Wed, 21 Oct 2026 07:28:00 GMT',
      '1e3',
      '9999999999',
    ]) {
      expect(parseRetryAfter(value), String(value)).toBeUndefined();
    }
  });
});

test('409, 429 and 5xx are worth asking again; other answers are not', () => {
  const retryable = [409, 429, 500, 502, 503, 504].filter(isRetryableStatus);
  expect(retryable).toEqual([409, 429, 500, 502, 503, 504]);
  expect([200, 201, 400, 401, 403, 404, 405, 422].filter(isRetryableStatus)).toEqual([]);
});
