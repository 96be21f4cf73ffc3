import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely } from 'kysely';
import pg from 'pg';
import { type DatabaseBounds, DEFAULT_BOUNDS } from './bounds.js';
import { type DirectoryLock, lockDirectory } from './directory-lock.js';
import { postgresDialect } from './driver.js';
import { boundsByDb, type DatabaseHandle } from './handle.js';
import { pgliteNotifier } from './notifier.js';
import type { Database } from './schema.js';
import { typeParsers } from './type-parsers.js';

/**
 * The embedded database (PGlite), in a module of its own: database.ts imports it only for a
 * `pglite://` URL, so a server on PostgreSQL never loads the WebAssembly engine's JavaScript (about
 * 3 MB of memory, issue 37).
 */
export async function openPglite(
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
