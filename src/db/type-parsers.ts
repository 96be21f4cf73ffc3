import pg from 'pg';

const TIMESTAMPTZ = 1184;
const defaultTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ);

/**
 * PostgreSQL sends timestamptz as `2026-11-21 10:04:05.123456+00`. Made ISO 8601 (a `T`, and `+00`
 * as `+00:00`), V8's native Date parser reads it several times faster than pg's regex-based parser,
 * which was the single largest cost of reading an invoice row. Anything unusual (BC, infinity,
 * seconds in the offset) goes to the default parser.
 */
export function parseTimestamptz(value: string): Date {
  // The usual case, a server in UTC: `…+00` becomes `…Z`, no regular expression needed.
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
    return new Date(`${value.slice(0, 10)}T${value.slice(11, n - 3)}Z`);
  }
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?$/.exec(value);
  if (!m) return defaultTimestamptz(value) as Date;
  return new Date(`${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}`);
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
