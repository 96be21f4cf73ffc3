import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';

/**
 * Hot statements are sent as named prepared statements, so PostgreSQL parses and plans them once per
 * connection instead of on every call (for the create-invoice statement, with its CTEs, that halves
 * the database's work). A statement opts in by carrying the PREPARED marker; its text must then be
 * fixed (no variable-length IN lists), which bounds the statements a connection keeps.
 */
export const PREPARED = sql.raw('/*prepared*/');
const MARKER = '/*prepared*/';

const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `pd_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

type Query = pg.Client['query'];

/** Makes every client of the pool send marked statements as named prepared statements. */
export function preparePool(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
      if (typeof text === 'string' && text.includes(MARKER) && typeof values !== 'function') {
        return query({ name: nameOf(text), text, values }, callback);
      }
      return query(text, values, callback);
    }) as Query;
  });
}
