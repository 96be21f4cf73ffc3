import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/database.js';
import { DirectoryLockedError } from './db/directory-lock.js';
import { migrate } from './db/migrate.js';
import { DatabaseUnreachableError, waitForPostgres } from './db/wait.js';
import { writeFirstStart } from './first-start.js';
import { memoryStore } from './http/rate-limit.js';
import { resilientRedisStore } from './http/shared-store.js';
import { createLogger } from './log.js';
import { demoBanner, seedDemo } from './merchants/demo.js';
import { fileLegacyXpubs } from './merchants/service.js';
import { openRates } from './rates/open.js';
import { loadSecretKey } from './secrets/key.js';
import { demoOwnerBanner, seedDemoOwner } from './users/demo.js';
import { sealClearTotpSecrets } from './users/totp-secret.js';
import { startWorkers } from './workers.js';

const SHUTDOWN_BUDGET_MS = 9_000;

async function main() {
  const config = loadConfig();
  const log = createLogger(config);
  const database = await openWhenReachable(config, log);
  await fileLegacyXpubs(database.db, config.networks);
  const secrets = await openSecrets(config, database, log);
  const demo =
    database.kind === 'pglite' && database.isNewEmbedded
      ? await seedDemo(database.db, config, new Date())
      : undefined;
  const demoInvite = demo
    ? await seedDemoOwner(database.db, demo.accountId, {
        now: new Date(),
        publicBaseUrl: config.publicBaseUrl,
      })
    : undefined;
  const limiter = config.redisUrl ? resilientRedisStore(config.redisUrl, log) : memoryStore();
  // Quotes are shared by every instance: in Redis when there is one, else in the database.
  const rates = openRates({ settings: config.rates, db: database.db, redisUrl: config.redisUrl, log });
  const app = await buildApp({
    config,
    database,
    limiter,
    loggerInstance: log,
    rates: rates.book,
    secretKey: secrets?.key,
  });

  let workers: Awaited<ReturnType<typeof startWorkers>> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests and jobs');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_BUDGET_MS);
    force.unref();
    // New requests are answered 503 while in-flight ones finish; jobs finish their round meanwhile.
    await Promise.all([app.drain.stop(), workers?.stop()]);
    await limiter.close();
    await rates.close();
    await database.close();
    clearTimeout(force);
    process.exit(0);
  };
  // Before anything starts serving, so that a signal at any moment from here on is a graceful stop.
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // PAYDESK_ROLE lets an operator scale HTTP and the background workers apart; `all` runs both.
  workers = config.role === 'api' ? undefined : await startWorkers({ database, config, log });
  if (config.role === 'worker') await app.ready();
  else await app.listen({ port: config.port, host: config.host });
  // On every start, where to find the dashboard (the first start's banner is long gone by the next).
  const dashboard = config.role === 'worker' ? undefined : `${config.publicBaseUrl}/dashboard`;
  log.info(
    { role: config.role, dashboard },
    dashboard ? `paydesk started; the dashboard is at ${dashboard}` : 'paydesk started',
  );
  const banners = [
    demo ? `${demoBanner(demo.secret, config.publicBaseUrl)}\n` : '',
    demoInvite ? `${demoOwnerBanner(demoInvite, config.publicBaseUrl)}\n` : '',
  ].join('');
  if (!banners) return;
  const file = writeFirstStart(config.stateDir, banners, new Date());
  const where = path.relative(process.cwd(), file) || file;
  // One write for the whole banner: nothing (a log line) can land inside it.
  process.stdout.write(`${banners}  Both are also in ${where} (readable by you only).\n\n`);
}

/**
 * The key that seals secrets at rest (PAYDESK_ENCRYPTION_KEY, or the key file made on the first start), and
 * the TOTP secrets an earlier version kept in clear sealed with it.
 */
async function openSecrets(config: Config, database: DatabaseHandle, log: FastifyBaseLogger) {
  const secrets = loadSecretKey(config);
  if (secrets?.created) {
    log.info(
      { file: secrets.file },
      'made a secret key for secrets at rest: keep the file with your backups',
    );
  }
  if (!secrets) {
    log.warn(
      'PAYDESK_ENCRYPTION_KEY is not set: dashboard users cannot turn two-factor on until it is (the same value on every instance)',
    );
  }
  const sealed = await sealClearTotpSecrets(database.db, secrets?.key);
  if (sealed.sealed > 0) {
    log.info({ users: sealed.sealed }, 'sealed the two-factor secrets an earlier version kept in clear');
  }
  if (sealed.left > 0) {
    log.warn(
      { users: sealed.left },
      'two-factor secrets are stored in clear: set PAYDESK_ENCRYPTION_KEY to seal them',
    );
  }
  return secrets;
}

/**
 * PostgreSQL may still be starting (a deployment brings both up together): wait for it, migrate, then
 * open the handle every request and job uses. Migrations run on a connection of their own without
 * the bounds of contract §20: a migration may take long, and instances starting together wait for
 * each other's (migrate.ts).
 */
async function openWhenReachable(config: Config, log: FastifyBaseLogger): Promise<DatabaseHandle> {
  if (config.databaseUrl.startsWith('pglite://')) {
    const database = await openDatabase(config.databaseUrl, { bounds: config.databaseBounds });
    await migrate(database.db);
    return database;
  }
  await waitForPostgres(config.databaseUrl, { timeoutMs: config.databaseWaitMs, log });
  const migrations = await openDatabase(config.databaseUrl, { bounds: null, poolMax: 1 });
  try {
    await migrate(migrations.db);
  } finally {
    await migrations.close();
  }
  return openDatabase(config.databaseUrl, {
    bounds: config.databaseBounds,
    poolMax: config.databasePoolMax,
  });
}

main().catch((err) => {
  if (
    err instanceof ConfigError ||
    err instanceof DirectoryLockedError ||
    err instanceof DatabaseUnreachableError
  ) {
    process.stderr.write(`paydesk: ${err.message}\n`);
  } else {
    process.stderr.write(`paydesk: failed to start: ${err?.stack ?? err}\n`);
  }
  process.exit(1);
});
