import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely } from 'kysely';
import pg from 'pg';
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
  close(): Promise<void>;
}

export interface OpenOptions {
  poolMax?: number;
  /** PGlite only: start an in-memory database from a snapshot (`dumpDataDir`), which is far faster than initdb. */
  pgliteSnapshot?: Blob;
}

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  if (url.startsWith('pglite://')) return openPglite(url.slice('pglite://'.length), options.pgliteSnapshot);
  throw new Error(
    `DATABASE_URL must start with postgres://, postgresql:// or pglite:// (got a value starting with "${url.slice(0, 12)}")`,
  );
}

async function openPostgres(url: string, options: OpenOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolMax ?? 10, types: typeParsers });
  // An idle client losing its connection (a server restart) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: postgresDialect(pool) });
  const notifier = postgresNotifier(url);
  return {
    db,
    kind: 'postgres',
    isNewEmbedded: false,
    notifier,
    async close() {
      await notifier.close();
      await db.destroy();
    },
  };
}

async function openPglite(location: string, snapshot?: Blob): Promise<DatabaseHandle> {
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
    return embeddedHandle(pglite, isNew, async () => {
      await pglite.close();
      lock?.release();
    });
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
): DatabaseHandle {
  const pool = new pg.Pool({ ...(createPgConfig(pglite) as pg.PoolConfig), types: typeParsers });
  const db = new Kysely<Database>({ dialect: postgresDialect(pool) });
  const notifier = pgliteNotifier(pglite);
  return {
    db,
    kind: 'pglite',
    isNewEmbedded,
    notifier,
    async close() {
      await notifier.close();
      await db.destroy();
      await release();
    },
  };
}
