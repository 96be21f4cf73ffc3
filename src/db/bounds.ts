import type pg from 'pg';

/**
 * How long Paydesk waits on the database (contract §20). A database that answers slowly, drops its
 * connections or goes silent (a partition, a host that vanished without a reset) must cost a request
 * a bounded wait and a 503, never a hung instance.
 */
export interface DatabaseBounds {
  /** Getting a connection: waiting for a free one in the pool, or opening a new one. */
  readonly connectMs: number;
  /** One statement, or one transaction as a whole (everything done on one checked-out connection). */
  readonly statementMs: number;
}

/** Contract §7/§20 defaults (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS). */
export const DEFAULT_BOUNDS: DatabaseBounds = Object.freeze({ connectMs: 2_000, statementMs: 5_000 });

/** The bound `GET /v1/health` puts on its own check, so a load balancer learns within a second. */
export const HEALTH_CHECK_MS = 1_000;

/** A database wait ran past its bound; the connection it used has been discarded. */
export class DatabaseTimeoutError extends Error {
  readonly code = 'PAYDESK_DB_TIMEOUT';
}

/**
 * Ends a connection at once, whatever state its socket is in. `client.end()` politely sends a
 * Terminate message and waits for the server to close, which never happens when the server is silent;
 * destroying the socket fails every query on it now ("Connection terminated"), and the pool drops it.
 */
export function destroyConnection(client: pg.Client | pg.PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection
    ?.stream;
  stream?.destroy?.();
}

/**
 * One query on a dedicated connection (the LISTEN connection, the leadership lock), bounded like every
 * other wait: past `ms` the connection is destroyed and the query fails with DatabaseTimeoutError.
 */
export async function boundedQuery<R extends pg.QueryResultRow>(
  client: pg.Client,
  ms: number,
  text: string,
  values?: unknown[],
): Promise<pg.QueryResult<R>> {
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    destroyConnection(client);
  }, ms);
  try {
    return await client.query<R>(text, values);
  } catch (err) {
    throw expired ? new DatabaseTimeoutError(`the database did not answer within ${ms} ms`) : err;
  } finally {
    clearTimeout(timer);
  }
}

/** Closes a dedicated connection politely, or, if the server does not answer within `ms`, at once. */
export async function closeConnection(client: pg.Client, ms: number): Promise<void> {
  const timer = setTimeout(() => destroyConnection(client), ms);
  try {
    await client.end();
  } catch {
    // Already closed, or destroyed above: either way it is gone.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits at most `ms` for a database call whose own bounds are longer (the health check's 1 s). The
 * call goes on in the background until its own bounds end it; its outcome is then ignored.
 */
export function within<T>(call: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DatabaseTimeoutError(`the database did not answer within ${ms} ms`)),
      ms,
    );
  });
  call.catch(() => {});
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}
