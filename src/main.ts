import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { DirectoryLockedError } from './db/directory-lock.js';
import { migrate } from './db/migrate.js';
import { memoryStore, redisStore } from './http/rate-limit.js';
import { purgeIdempotencyKeys } from './invoices/idempotency.js';
import { demoBanner, seedDemo } from './merchants/demo.js';

const SHUTDOWN_BUDGET_MS = 9_000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  await migrate(database.db);
  const demoSecret =
    database.kind === 'pglite' && database.isNewEmbedded
      ? await seedDemo(database.db, new Date())
      : undefined;
  const limiter = config.redisUrl
    ? redisStore(new Redis(config.redisUrl, { enableAutoPipelining: true }))
    : memoryStore();
  const app = await buildApp({ config, database, limiter });

  // Idempotency keys are kept 24 h, then purged; running this on every instance is harmless.
  const purge = setInterval(() => {
    purgeIdempotencyKeys(database.db, new Date()).catch((err) =>
      app.log.error({ err }, 'idempotency purge failed'),
    );
  }, PURGE_EVERY_MS);
  purge.unref();

  await app.listen({ port: config.port, host: config.host });
  if (demoSecret) process.stdout.write(`${demoBanner(demoSecret, config.publicBaseUrl)}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_BUDGET_MS);
    force.unref();
    clearInterval(purge);
    await app.close();
    await limiter.close();
    await database.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DirectoryLockedError) {
    process.stderr.write(`paydesk: ${err.message}\n`);
  } else {
    process.stderr.write(`paydesk: failed to start: ${err?.stack ?? err}\n`);
  }
  process.exit(1);
});
