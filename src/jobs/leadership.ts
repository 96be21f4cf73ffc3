import pg from 'pg';
import { boundedQuery, closeConnection, type DatabaseBounds, destroyConnection } from '../db/bounds.js';

/**
 * Decides which instance runs an exclusive job (a chain watcher): the holder of a PostgreSQL advisory
 * lock, taken on one dedicated connection per process (outside the query pool, which it would
 * otherwise starve). If that connection drops, the server releases its locks and another instance
 * takes over. Correctness never depends on it (exclusive jobs write idempotently); it keeps N
 * instances from doing the same work N times.
 */
export interface Leadership {
  /** True while this process holds `name`'s lock (taking it if free). */
  hold(name: string): Promise<boolean>;
  release(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Embedded PGlite: one process owns the database folder (a lock file), so it leads every job. */
export const soleLeader: Leadership = {
  hold: async () => true,
  release: async () => {},
  close: async () => {},
};

export function advisoryLeadership(databaseUrl: string, bounds: DatabaseBounds): Leadership {
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  const held = new Set<string>();

  /** The locks went with the connection: forget them, and reconnect on the next hold(). */
  const forget = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    held.clear();
  };

  // Every wait is bounded (contract §20): a silent server costs a job round a timeout, never a hang.
  // A connection that timed out is destroyed, which releases its locks on the server's side.
  const query = async <R extends pg.QueryResultRow>(c: pg.Client, text: string, values?: unknown[]) => {
    try {
      return await boundedQuery<R>(c, bounds.statementMs, text, values);
    } catch (err) {
      forget(c);
      destroyConnection(c);
      throw err;
    }
  };

  const connection = async (): Promise<pg.Client> => {
    if (client) return client;
    connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: databaseUrl,
        application_name: 'paydesk-leadership',
        connectionTimeoutMillis: bounds.connectMs,
        keepAlive: true,
      });
      c.on('error', () => forget(c));
      c.on('end', () => forget(c));
      try {
        await c.connect();
        client = c;
        return c;
      } catch (err) {
        destroyConnection(c);
        throw err;
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  };

  return {
    async hold(name) {
      const c = await connection();
      if (held.has(name)) {
        // Still connected means still holding: a round trip proves the connection is alive.
        await query(c, 'select 1');
        return client === c && held.has(name);
      }
      const { rows } = await query<{ ok: boolean }>(c, 'select pg_try_advisory_lock(hashtext($1)) as ok', [
        `paydesk:job:${name}`,
      ]);
      if (rows[0]?.ok) held.add(name);
      return held.has(name);
    },
    async release(name) {
      if (!held.delete(name) || !client) return;
      await query(client, 'select pg_advisory_unlock(hashtext($1))', [`paydesk:job:${name}`]).catch(() => {});
    },
    async close() {
      held.clear();
      const c = client;
      client = undefined;
      if (c) await closeConnection(c, bounds.connectMs);
    },
  };
}
