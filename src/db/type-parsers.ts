import pg from 'pg';

const TIMESTAMPTZ = 1184;
const defaultTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ);

/**
 * PostgreSQL sends timestamptz as `2026-11-21 10:04:05.123456+00`. A server in UTC (the usual case)
 * is read digit by digit into Date.UTC: no regular expression, no intermediate string and no date
 * parser, which matters because every invoice row holds several (issue 37). Anything else (another
 * offset, BC, infinity, a year before 1000) is made ISO 8601 and read by V8's parser, or by pg's.
 */
export function parseTimestamptz(value: string): Date {
  const n = value.length;
  if (
    n >= 22 &&
    n <= 29 &&
    value.charCodeAt(4) === 45 &&
    value.charCodeAt(10) === 32 &&
    value.charCodeAt(n - 3) === 43 &&
    value.charCodeAt(n - 2) === 48 &&
    value.charCodeAt(n - 1) === 48
  ) {
    const utc = utcMilliseconds(value, n - 3);
    if (utc !== undefined) return new Date(utc);
  }
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?$/.exec(value);
  if (!m) return defaultTimestamptz(value) as Date;
  return new Date(`${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}`);
}

/** `YYYY-MM-DD HH:MM:SS[.f…]` up to `end`, as UTC milliseconds; undefined for any other shape. */
function utcMilliseconds(value: string, end: number): number | undefined {
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  const hour = digits(value, 11, 13);
  const minute = digits(value, 14, 16);
  const second = digits(value, 17, 19);
  // Date.UTC reads years 0 to 99 as 1900 to 1999: those (and any malformed field) take the slow path.
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  if (value.charCodeAt(7) !== 45 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58)
    return undefined;
  let ms = 0;
  if (end > 19) {
    // A fraction of 1 to 6 digits: its first three are the milliseconds, the rest are dropped (as V8's
    // parser and pg's both do).
    if (value.charCodeAt(19) !== 46 || end === 20) return undefined;
    const fraction = digits(value, 20, Math.min(end, 23));
    // Digits past the milliseconds are dropped, but must be digits.
    if (fraction < 0 || (end > 23 && digits(value, 23, end) < 0)) return undefined;
    ms = fraction * 10 ** (3 - (Math.min(end, 23) - 20));
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** The decimal number written in value[start, end), or -1 if any of it is not a digit. */
function digits(value: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * The type parsers of Paydesk's own pools: pg's defaults, with the faster timestamptz. Given to each
 * pool it opens (pg.types.setTypeParser would change every pg client in the process, libraries' too).
 */
export const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary'
      ? parseTimestamptz
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
