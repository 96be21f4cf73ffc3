import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.js';
import { embeddedHandle } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import { randomBase62 } from '../src/ids.js';

/** Which backend this run tests: PGlite by default, PostgreSQL when TEST_DATABASE_URL is set. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const onPostgres = TEST_DATABASE_URL !== undefined;

let snapshot: Blob | undefined;
const idle: PGlite[] = [];

/**
 * An embedded database as fresh as the migrated snapshot, at a fraction of a snapshot load's cost:
 * a closed test database is emptied (every table truncated, every prepared statement and listener
 * dropped) and handed to the next test of this worker, rather than a new instance loaded.
 */
async function embeddedTestDatabase(blob: Blob): Promise<DatabaseHandle> {
  const pglite = idle.pop() ?? (await PGlite.create({ loadDataDir: blob }));
  return embeddedHandle(pglite, true, async () => {
    await pglite.exec(`
      do $$ begin
        execute (select 'truncate ' || string_agg(format('%I', tablename), ', ') || ' restart identity cascade'
                 from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations');
      end $$;
      deallocate all;
      unlisten *;`);
    idle.push(pglite);
  });
}

/** A fresh, migrated database of its own; on PostgreSQL a new database dropped again by `drop()`. */
export async function freshDatabase(): Promise<{
  url: string;
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
}> {
  if (!TEST_DATABASE_URL) {
    snapshot ??= new Blob([await readFile(inject('pgliteSnapshot'))]);
    const blob = snapshot;
    return {
      url: 'pglite://memory',
      open: () => embeddedTestDatabase(blob),
      drop: async () => {},
    };
  }
  const name = `paydesk_t_${randomBase62(10).toLowerCase()}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  // Migrations run without the request bounds, as in main.ts.
  const handle = await openDatabase(url.toString(), { bounds: null });
  await migrate(handle.db);
  await handle.close();
  return {
    url: url.toString(),
    open: () => openDatabase(url.toString()),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

/**
 * Runs one statement on the test server's maintenance database (create or drop databases), or on the
 * server at `url`.
 */
export async function adminQuery(text: string, url = TEST_DATABASE_URL) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A database of its own migrated only up to (not including) `version`, as an instance that ran an
 * older Paydesk left it: for migration tests, which then write rows in the old shape and start the
 * app (which applies the rest). On PGlite a folder (a memory database dies with its handle).
 */
export async function databaseBefore(version: string): Promise<{ url: string; drop(): Promise<void> }> {
  const all = fileURLToPath(new URL('../migrations/', import.meta.url));
  const older = await mkdtemp(path.join(tmpdir(), 'paydesk-migrations-'));
  for (const f of await readdir(all))
    if (/^\d{4}_/.test(f) && f < version) await copyFile(path.join(all, f), path.join(older, f));
  let url: string;
  let drop: () => Promise<void>;
  if (TEST_DATABASE_URL) {
    const name = `paydesk_b_${randomBase62(10).toLowerCase()}`;
    await adminQuery(`create database ${name}`);
    const u = new URL(TEST_DATABASE_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    drop = () => adminQuery(`drop database if exists ${name} with (force)`);
  } else {
    const dir = await mkdtemp(path.join(tmpdir(), 'paydesk-before-'));
    url = `pglite://${dir}`;
    drop = () => rm(dir, { recursive: true, force: true });
  }
  const handle = await openDatabase(url, { bounds: null });
  try {
    await migrate(handle.db, older);
  } finally {
    await handle.close();
    await rm(older, { recursive: true, force: true });
  }
  return { url, drop };
}
