import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrate } from '../src/db/migrate.js';
import { buildPaydesk } from './build.js';

/**
 * PGlite takes seconds to initdb but well under one to load a snapshot, so the migrated empty
 * database is built once per run and every test file starts from a copy of it. So is the compiled
 * source that the tests starting Paydesk as a process run (test/build.ts).
 */
export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  // Where the first worker that needs it makes the demo folder template (test/process.ts demoFolder).
  const demoTemplateDir = path.join(tmpdir(), `paydesk-template-${process.pid}`);
  provide('demoTemplateDir', demoTemplateDir);
  const buildDir = path.join(tmpdir(), `paydesk-build-${process.pid}`);
  const teardown = () =>
    Promise.all([demoTemplateDir, buildDir].map((d) => rm(d, { recursive: true, force: true })));
  // esbuild compiles in a process of its own, while PGlite initialises here.
  const built = buildPaydesk(buildDir);
  built.catch(() => {});
  if (!process.env.TEST_DATABASE_URL) provide('pgliteSnapshot', await pgliteSnapshot());
  provide('paydeskBuild', await built);
  return teardown;
}

async function pgliteSnapshot(): Promise<string> {
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
  return file;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    demoTemplateDir: string;
    paydeskBuild: string;
  }
}
