import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrate } from '../src/db/migrate.js';
import { buildPaydesk } from './build.js';
import { startChain, stopAllChains } from './chain.js';
import { adminQuery } from './database.js';
import { installFactory } from './forwarders.js';
import { type DemoTemplate, killAll, makeDemoTemplate } from './process.js';

/**
 * PGlite takes seconds to initdb but well under one to load a snapshot, so the migrated empty
 * database is built once per run and every test file starts from a copy of it. So are the compiled
 * source that the tests starting Paydesk as a process run (test/build.ts), and the folder a first
 * start leaves, which they start from (test/process.ts demoFolder).
 */
export default async function setup({ provide }: { provide: (key: string, value: unknown) => void }) {
  const buildDir = path.join(tmpdir(), `paydesk-build-${process.pid}`);
  const templateDir = path.join(tmpdir(), `paydesk-template-${process.pid}`);
  // This run's PostgreSQL test databases are named after it, so that its teardown drops what its
  // workers kept for reuse (test/database.ts), and no other run's.
  const postgresRun = `r${process.pid}`;
  const teardown = () =>
    Promise.all([
      stopAllChains(),
      ...[templateDir, buildDir].map((d) => rm(d, { recursive: true, force: true })),
      ...(process.env.TEST_DATABASE_URL ? [dropRunDatabases(postgresRun)] : []),
    ]);
  // Side by side: esbuild, then the demo folder's first start, each in a process of its own, while
  // PGlite initialises here.
  const built = buildPaydesk(buildDir);
  const template = built.then((build) => demoTemplate(templateDir, build));
  template.catch(() => {});
  // PGlite's WebAssembly on V8's baseline compiler only, as in the workers (vitest.config.ts).
  setFlagsFromString('--liftoff-only');
  // One Hardhat node, with the forwarder factory, for tests whose networks need a node that answers
  // (contract §21: a network whose node never answered is not offered) but not a chain of their own.
  const node = sharedNode();
  node.catch(() => {});
  if (!process.env.TEST_DATABASE_URL) provide('pgliteSnapshot', await pgliteSnapshot());
  provide('postgresRun', postgresRun);
  provide('sharedNodeUrl', await node);
  provide('paydeskBuild', await built);
  provide('demoTemplate', await template);
  return teardown;
}

/** test/process.ts demoFolder's template; a failure is left to the tests that need it to report. */
async function demoTemplate(dir: string, build: string): Promise<DemoTemplate> {
  try {
    await mkdir(dir);
    return await makeDemoTemplate(dir, build);
  } catch (err) {
    return { error: String(err) };
  } finally {
    await killAll();
  }
}

async function sharedNode(): Promise<string> {
  const chain = await startChain();
  await installFactory(chain);
  return chain.rpcUrl;
}

/** Every test database of this run still on the PostgreSQL server: the ones its workers kept for reuse. */
async function dropRunDatabases(run: string): Promise<void> {
  const names = await adminQuery<{ datname: string }>(
    `select datname from pg_database where datname like 'paydesk_t_${run}_%'`,
  );
  for (const { datname } of names) await adminQuery(`drop database if exists ${datname} with (force)`);
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
    demoTemplate: DemoTemplate;
    paydeskBuild: string;
    sharedNodeUrl: string;
    /** Names this run's PostgreSQL test databases (test/database.ts). */
    postgresRun: string;
  }
}
