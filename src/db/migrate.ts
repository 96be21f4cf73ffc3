import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

// Any constant will do, as long as every instance uses the same one: it serialises start-ups.
const MIGRATION_LOCK_ID = 7_236_051_001;

/**
 * Applies the forward-only numbered SQL files in `migrations/` that this database has not seen yet.
 * A session-level advisory lock, held on one connection for the whole run, makes instances that start
 * together take turns: the second one finds everything applied and does nothing.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations run below the typed schema
export async function migrate(db: Kysely<any>, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_ID})`.execute(conn);
    try {
      await sql`create table if not exists schema_migrations (
        version text primary key,
        applied_at timestamptz not null default now()
      )`.execute(conn);
      const done = await sql<{ version: string }>`select version from schema_migrations`.execute(conn);
      const applied = new Set(done.rows.map((r) => r.version));
      const ran: string[] = [];
      for (const file of files) {
        const version = file.slice(0, -'.sql'.length);
        if (applied.has(version)) continue;
        const body = await readFile(path.join(dir, file), 'utf8');
        await conn.transaction().execute(async (tx) => {
          await sql.raw(body).execute(tx);
          await sql`insert into schema_migrations (version) values (${version})`.execute(tx);
        });
        ran.push(version);
      }
      return ran;
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.execute(conn);
    }
  });
}
