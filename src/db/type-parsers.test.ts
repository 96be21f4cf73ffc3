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

  test('in UTC, agrees with V8 reading the ISO form, for 0 to 6 decimals and any year', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 999 }),
        (d, places, micros) => {
          const iso = d.toISOString();
          const digits = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.slice(0, places);
          const fraction = places === 0 ? '' : `.${digits}`;
          const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00`;
          const expected = new Date(`${iso.slice(0, 19)}${fraction}Z`).getTime();
          expect(parseTimestamptz(text).getTime()).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
    expect(parseTimestamptz('0099-03-01 12:00:00+00').toISOString()).toBe('0099-03-01T12:00:00.000Z');
    expect(parseTimestamptz('2026-11-21 10:04:05.5+00').toISOString()).toBe('2026-11-21T10:04:05.500Z');
  });

  test('leaves the unusual forms to pg', () => {
    expect(parseTimestamptz('infinity')).toBe(Number.POSITIVE_INFINITY);
  });
});
