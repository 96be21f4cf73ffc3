import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrate } from '../src/db/migrate.js';

/**
 * PGlite takes seconds to initdb but well under one to load a snapshot, so the migrated empty
 * database is built once per run and every test file starts from a copy of it.
 */
export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  // Where the first worker that needs it makes the demo folder template (test/process.ts demoFolder).
  const demoTemplateDir = path.join(tmpdir(), `paydesk-template-${process.pid}`);
  provide('demoTemplateDir', demoTemplateDir);
  const teardown = () => rm(demoTemplateDir, { recursive: true, force: true });
  if (process.env.TEST_DATABASE_URL) return teardown;
  const pglite = await PGlite.create();
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool(createPgConfig(pglite) as pg.PoolConfig) }),
  });
  await migrate(db);
  await db.destroy();
  const snapshot = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = path.join(tmpdir(), `paydesk-test-snapshot-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await snapshot.arrayBuffer()));
  provide('pgliteSnapshot', file);
  return teardown;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    demoTemplateDir: string;
  }
}
