import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { describe, expect, test } from 'vitest';
import { adminQuery, freshDatabase, onPostgres, TEST_DATABASE_URL } from '../../test/database.js';
import { randomBase62 } from '../ids.js';
import { openDatabase } from './database.js';
import { migrate } from './migrate.js';

const VERSIONS = readdirSync(fileURLToPath(new URL('../../migrations/', import.meta.url)))
  .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
  .map((f) => f.slice(0, -'.sql'.length))
  .sort();

describe('migrate', () => {
  test('a second run on a migrated database applies nothing', async () => {
    const fresh = await freshDatabase();
    const handle = await fresh.open();
    try {
      const before = await sql<{
        version: string;
      }>`select version from schema_migrations order by version`.execute(handle.db);
      expect(before.rows.map((r) => r.version)).toEqual(VERSIONS);
      expect(await migrate(handle.db)).toEqual([]);
      const after = await sql<{ n: string }>`select count(*) as n from schema_migrations`.execute(handle.db);
      expect(Number(after.rows[0]?.n)).toBe(VERSIONS.length);
    } finally {
      await handle.close();
      await fresh.drop();
    }
  });

  describe.skipIf(!onPostgres)('on PostgreSQL', () => {
    test('two instances migrating one new database at once both succeed, and each version is applied once', async () => {
      const name = `paydesk_m_${randomBase62(10).toLowerCase()}`;
      await adminQuery(`create database ${name}`);
      const url = new URL(TEST_DATABASE_URL as string);
      url.pathname = `/${name}`;
      const a = await openDatabase(url.toString(), { bounds: null });
      const b = await openDatabase(url.toString(), { bounds: null });
      try {
        const [ranA, ranB] = await Promise.all([migrate(a.db), migrate(b.db)]);
        // Whoever took the lock first applied everything; the other found nothing left to do.
        expect([...ranA, ...ranB].sort()).toEqual(VERSIONS);
        expect([ranA.length, ranB.length].sort()).toEqual([0, VERSIONS.length]);

        const recorded = await sql<{ version: string; n: string }>`
          select version, count(*) as n from schema_migrations group by version order by version`.execute(
          a.db,
        );
        expect(recorded.rows.map((r) => r.version)).toEqual(VERSIONS);
        for (const r of recorded.rows) expect(Number(r.n)).toBe(1);

        expect(await migrate(b.db)).toEqual([]);
        expect(await migrate(a.db)).toEqual([]);
      } finally {
        await a.close();
        await b.close();
        await adminQuery(`drop database if exists ${name} with (force)`);
      }
    });
  });
});
