import { Kysely } from 'kysely';
import pg from 'pg';
import { type DatabaseBounds, DEFAULT_BOUNDS } from './bounds.js';
import { postgresDialect } from './driver.js';
import { boundsByDb, type DatabaseHandle } from './handle.js';
import { postgresNotifier } from './notifier.js';
import type { Database } from './schema.js';
import { typeParsers } from './type-parsers.js';

export { boundsOf, type DatabaseHandle, type DatabaseKind } from './handle.js';

export interface OpenOptions {
  poolMax?: number;
  /**
   * Bounds on every database wait (contract §20); the contract's defaults when left out. `null`
   * removes them, for the one job that may legitimately hold a connection for long: migrations.
   */
  bounds?: DatabaseBounds | null;
  /** PGlite only: start an in-memory database from a snapshot (`dumpDataDir`), which is far faster than initdb. */
  pgliteSnapshot?: Blob;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  if (url.startsWith('pglite://')) {
    const { openPglite } = await import('./embedded.js');
    return openPglite(url.slice('pglite://'.length), options.pgliteSnapshot, boundsFrom(options));
  }
  throw new Error(
    `DATABASE_URL must start with postgres://, postgresql:// or pglite:// (got a value starting with "${url.slice(0, 12)}")`,
  );
}

function boundsFrom(options: OpenOptions): DatabaseBounds | undefined {
  return options.bounds === null ? undefined : (options.bounds ?? DEFAULT_BOUNDS);
}

async function openPostgres(url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const bounds = boundsFrom(options);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    types: typeParsers,
    // Waiting for a free connection, or for a new one to open (pg-pool bounds both with this).
    connectionTimeoutMillis: bounds?.connectMs ?? 0,
    // The server enforces the same bounds, so that a statement or an open transaction left behind by
    // a connection we discarded (its socket destroyed mid-wait) does not hold its locks for long.
    ...(bounds
      ? { statement_timeout: bounds.statementMs, idle_in_transaction_session_timeout: bounds.statementMs }
      : {}),
    // A peer that vanished without a reset is noticed by the kernel, even on an idle connection.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A connection that drops while idle in the pool (a restart, pg_terminate_backend) is removed by the
  // pool. One that drops while checked out emits 'error' on its client, which, unheard, would end the
  // process: the query in flight fails on its own (the request answers 503) and the pool discards it.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: postgresDialect(pool, { statementMs: bounds?.statementMs }) });
  if (bounds) boundsByDb.set(db, bounds);
  const notifier = postgresNotifier(url, bounds ?? DEFAULT_BOUNDS);
  return {
    db,
    kind: 'postgres',
    isNewEmbedded: false,
    notifier,
    bounds,
    async close() {
      await notifier.close();
      await db.destroy();
    },
  };
}
