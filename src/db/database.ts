import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely } from 'kysely';
import pg from 'pg';
import { type DatabaseBounds, DEFAULT_BOUNDS } from './bounds.js';
import { type DirectoryLock, lockDirectory } from './directory-lock.js';
import { postgresDialect } from './driver.js';
import { type Notifier, pgliteNotifier, postgresNotifier } from './notifier.js';
import type { Database } from './schema.js';
import { typeParsers } from './type-parsers.js';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The database behind one interface: Kysely over a `pg` pool, whose connections go either to a real
 * PostgreSQL server or to an embedded PGlite instance. Everything above this file runs the same SQL on both.
 */
export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseKind;
  /** True when this process created a brand-new embedded database (the demo seed keys off this). */
  readonly isNewEmbedded: boolean;
  readonly notifier: Notifier;
  /** The bounds this handle enforces (undefined: none, as for migrations). */
  readonly bounds: DatabaseBounds | undefined;
  close(): Promise<void>;
}

const boundsByDb = new WeakMap<Kysely<Database>, DatabaseBounds>();

/**
 * The bounds of the handle a Kysely instance belongs to, for code that waits on the database in ways of
 * its own (a group commit's queue); the defaults for an instance made elsewhere.
 */
export function boundsOf(db: Kysely<Database>): DatabaseBounds {
  return boundsByDb.get(db) ?? DEFAULT_BOUNDS;
}

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

async function openPglite(
  location: string,
  snapshot: Blob | undefined,
  bounds: DatabaseBounds | undefined,
): Promise<DatabaseHandle> {
  let lock: DirectoryLock | undefined;
  let dataDir: string | undefined;
  let isNew = true;
  if (location !== 'memory' && location !== '') {
    dataDir = path.resolve(location);
    // PGlite neither creates parent folders nor guards its folder against a second process.
    mkdirSync(dataDir, { recursive: true });
    lock = lockDirectory(dataDir);
    isNew = !existsSync(path.join(dataDir, 'PG_VERSION'));
  }
  try {
    const pglite = await PGlite.create(dataDir ? { dataDir } : snapshot ? { loadDataDir: snapshot } : {});
    return embeddedHandle(
      pglite,
      isNew,
      async () => {
        await pglite.close();
        lock?.release();
      },
      bounds,
    );
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/**
 * A handle over an open PGlite instance; `release` runs once the handle's own pool is closed (it
 * closes the instance, or, in the tests, hands it back for reuse).
 */
export function embeddedHandle(
  pglite: PGlite,
  isNewEmbedded: boolean,
  release: () => Promise<void>,
  bounds: DatabaseBounds | undefined = DEFAULT_BOUNDS,
): DatabaseHandle {
  const pool = new pg.Pool({
    ...(createPgConfig(pglite) as pg.PoolConfig),
    types: typeParsers,
    // PGlite has one connection and runs one statement at a time: the wait for it is the wait behind
    // other statements, bounded like a statement.
    connectionTimeoutMillis: bounds?.statementMs ?? 0,
  });
  const db = new Kysely<Database>({ dialect: postgresDialect(pool) });
  if (bounds) boundsByDb.set(db, bounds);
  const notifier = pgliteNotifier(pglite);
  return {
    db,
    kind: 'pglite',
    isNewEmbedded,
    notifier,
    bounds,
    async close() {
      await notifier.close();
      await db.destroy();
      await release();
    },
  };
}
