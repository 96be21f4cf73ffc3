import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseTimestamptz } from './type-parsers.js';

describe('parseTimestamptz', () => {
  test('reads what PostgreSQL sends, to the millisecond', () => {
    expect(parseTimestamptz('2026-11-21 10:04:05.123+00').toISOString()).toBe('2026-11-21T10:04:05.123Z');
    expect(parseTimestamptz('2026-11-21 10:04:05.123456+00').toISOString()).toBe('2026-11-21T10:04:05.123Z');
    expect(parseTimestamptz('2026-11-21 10:04:05+05:30').toISOString()).toBe('2026-11-21T04:34:05.000Z');
    expect(parseTimestamptz('2026-11-21 10:04:05-08').toISOString()).toBe('2026-11-21T18:04:05.000Z');
  });

  test('agrees with the ISO reading for any instant and offset', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('2999-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -12, max: 14 }),
        (d, hours) => {
          const shifted = new Date(d.getTime() + hours * 3600_000).toISOString();
          const sign = hours < 0 ? '-' : '+';
          const text = `${shifted.slice(0, 10)} ${shifted.slice(11, 23)}${sign}${String(Math.abs(hours)).padStart(2, '0')}`;
          expect(parseTimestamptz(text).getTime()).toBe(d.getTime());
        },
      ),
    );
  });

  test('leaves the unusual forms to pg', () => {
    expect(parseTimestamptz('infinity')).toBe(Number.POSITIVE_INFINITY);
  });
});
