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
  const name = idlePostgres.pop() ?? (await migratedPostgresDatabase());
  const url = postgresUrl(name);
  return { url, open: () => openDatabase(url), drop: () => recycle(name) };
}

/**
 * On PostgreSQL, as with PGlite above: a test's database is emptied when the test is done with it and
 * handed to this worker's next test. A new one costs about 600 ms (`create database`, then every
 * migration, each commit waiting for the disk); emptying one, a fraction of that (the suite on
 * PostgreSQL went from about 450 to 335 s). The teardown of the run
 * (global-setup.ts) drops the databases left idle at its end.
 */
const idlePostgres: string[] = [];
/** The schema of a database fresh from the migrations (SCHEMA_PRINT), taken from this worker's first. */
let pristineSchema: string | undefined;

function postgresUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}

async function migratedPostgresDatabase(): Promise<string> {
  const name = `paydesk_t_${inject('postgresRun')}_${randomBase62(10).toLowerCase()}`;
  await adminQuery(`create database ${name}`);
  // Migrations run without the request bounds, as in main.ts.
  const handle = await openDatabase(postgresUrl(name), { bounds: null });
  await migrate(handle.db);
  await handle.close();
  if (pristineSchema === undefined) {
    const [row] = await adminQuery<{ print: string }>(SCHEMA_PRINT, postgresUrl(name));
    pristineSchema = row?.print;
  }
  return name;
}

/**
 * What a test could change beyond its rows: the tables, columns and defaults, triggers and whether
 * they fire, functions, constraints, schemas and the database's own settings. A database whose print
 * differs from a fresh one's is dropped, never reused (a fault test's trigger must not outlive it).
 */
const SCHEMA_PRINT = `
  select md5(string_agg(x, ',' order by x)) as print from (
    select 'n:' || nspname as x from pg_namespace where nspname not like 'pg_%' and nspname <> 'information_schema'
    union all
    select 'r:' || n.nspname || '.' || c.relname || ':' || c.relkind::text
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'
    union all
    select 'a:' || c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' ||
           a.attnotnull::text || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped
    union all
    select 't:' || c.relname || '.' || t.tgname || ':' || t.tgenabled::text
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and not t.tgisinternal
    union all
    select 'f:' || p.proname || ':' || md5(p.prosrc)
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
    union all
    select 'c:' || co.conname || ':' || pg_get_constraintdef(co.oid)
    from pg_constraint co join pg_namespace n on n.oid = co.connamespace where n.nspname = 'public'
    union all
    select 'd:' || array_to_string(s.setconfig, ',')
    from pg_db_role_setting s join pg_database db on db.oid = s.setdatabase where db.datname = current_database()
  ) q`;

/**
 * Every table but the migrations' ledger emptied (the ones with rows truncated, so no dead rows pile
 * up on a server without autovacuum), every sequence back at its start: the rows of a fresh database.
 */
const EMPTY_DATABASE = `
  do $$
  declare
    t text;
    s record;
    has_rows boolean;
    full_tables text[] := '{}';
  begin
    for t in select tablename from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations' loop
      execute format('select exists (select 1 from %I)', t) into has_rows;
      if has_rows then full_tables := full_tables || format('%I', t); end if;
    end loop;
    if cardinality(full_tables) > 0 then
      execute 'truncate ' || array_to_string(full_tables, ', ') || ' cascade';
    end if;
    for s in select seqrelid::regclass as seq, seqstart from pg_sequence loop
      perform setval(s.seq, s.seqstart, false);
    end loop;
  end $$`;

/**
 * A database the test is done with: emptied and kept for this worker's next test when nobody else is
 * connected to it and its schema is as the migrations left it; dropped otherwise (and on any error).
 */
async function recycle(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl(name) });
  client.on('error', () => {});
  try {
    await client.connect();
    const others = await client.query(
      'select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    const [print] = (await client.query<{ print: string }>(SCHEMA_PRINT)).rows;
    if (others.rows.length > 0 || pristineSchema === undefined || print?.print !== pristineSchema) {
      throw new Error('not reusable');
    }
    await client.query(EMPTY_DATABASE);
    await client.end();
    idlePostgres.push(name);
  } catch {
    await client.end().catch(() => {});
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}

/**
 * Runs one statement on the test server's maintenance database (create or drop databases), or on the
 * server at `url`.
 */
export async function adminQuery<R extends object = object>(text: string, url = TEST_DATABASE_URL) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
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
    drop = async () => {
      await adminQuery(`drop database if exists ${name} with (force)`);
    };
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
