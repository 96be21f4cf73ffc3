// Connection-level failures of pg; PostgreSQL's "cannot connect now" classes (08xxx, 57P0x); a
// statement cancelled by statement_timeout (57014) and a session ended by
// idle_in_transaction_session_timeout (25P03); and our own bound (src/db/bounds.ts).
const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '25P03',
  'PAYDESK_DB_TIMEOUT',
]);

/** True when the database could not be reached in time (as opposed to refusing what was asked of it). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && (DB_DOWN_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  return (
    typeof e?.message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|is not queryable|Query read timeout/.test(
      e.message,
    )
  );
}
