// Connection-level failures of pg, and PostgreSQL's "cannot connect now" classes (08xxx, 57P0x).
const DB_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
]);

/** True when the database could not be reached (as opposed to refusing what was asked of it). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && (DB_DOWN_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  return (
    typeof e?.message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect/.test(e.message)
  );
}
