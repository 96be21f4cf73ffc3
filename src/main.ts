import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { DirectoryLockedError } from './db/directory-lock.js';
import { migrate } from './db/migrate.js';
import { memoryStore, redisStore } from './http/rate-limit.js';
import { demoBanner, seedDemo } from './merchants/demo.js';
import { startWorkers } from './workers.js';

const SHUTDOWN_BUDGET_MS = 9_000;

async function main() {
  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl);
  await migrate(database.db);
  const demoSecret =
    database.kind === 'pglite' && database.isNewEmbedded
      ? await seedDemo(database.db, config.networks, new Date())
      : undefined;
  const limiter = config.redisUrl
    ? redisStore(new Redis(config.redisUrl, { enableAutoPipelining: true }))
    : memoryStore();
  const app = await buildApp({ config, database, limiter });

  // PAYDESK_ROLE lets an operator scale HTTP and the background workers apart; `all` runs both.
  const workers = config.role === 'api' ? undefined : await startWorkers({ database, config, log: app.log });
  if (config.role === 'worker') await app.ready();
  else await app.listen({ port: config.port, host: config.host });
  app.log.info({ role: config.role }, 'paydesk started');
  if (demoSecret) process.stdout.write(`${demoBanner(demoSecret, config.publicBaseUrl)}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_BUDGET_MS);
    force.unref();
    await workers?.stop();
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
