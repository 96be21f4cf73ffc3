import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type DatabaseHandle, openDatabase } from '../src/db/database.js';
import { memoryStore, type RateLimitStore } from '../src/http/rate-limit.js';
import { resilientRedisStore } from '../src/http/shared-store.js';
import { randomBase62 } from '../src/ids.js';
import type { RunningJobs } from '../src/jobs/runner.js';
import type { MailTuning } from '../src/mail/mail.job.js';
import { lowerPasswordCostForTests } from '../src/users/password.js';
import type { DeliveryTuning } from '../src/webhooks/delivery.job.js';
import { startWorkers } from '../src/workers.js';
import { freshDatabase } from './database.js';
import { rememberingSerializers } from './serializers.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const TEST_SECRET_KEY = 'test-secret-key-0123456789abcdef0123456789';

// The apps tests build hash their users' passwords at scrypt N = 2^10 rather than 2^15 (about 90 ms
// of CPU each, a few hundred times a run); src/users/password.test.ts holds the real cost to account.
lowerPasswordCostForTests(2 ** 10);

const serializers = rememberingSerializers();
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL;

/** A clock the test moves by hand. */
export function manualClock(start = new Date()) {
  let now = start.getTime();
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  clock.set = (d: Date) => {
    now = d.getTime();
  };
  return clock;
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The app's database (`pglite://memory` for an embedded one, which no other handle can open). */
  databaseUrl: string;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  rawLogs: () => string;
  /** The background jobs, when the app runs them. */
  workers: RunningJobs | undefined;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: () => Date;
  /** Reuse a database (several instances on one PostgreSQL); by default each app gets its own. */
  databaseUrl?: string;
  /**
   * Run the background jobs on the app's clock, as `npm start` does: all of them (`true`), or only
   * those named.
   */
  workers?: boolean | readonly string[];
  deliveryTuning?: Partial<DeliveryTuning>;
  mailTuning?: Partial<MailTuning>;
  /** Share one rate-limit store key space between several apps. */
  redisPrefix?: string;
}

/** The real app, on a real database, with logs captured: what every test talks to. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const fresh = options.databaseUrl ? undefined : await freshDatabase();
  const url = options.databaseUrl ?? fresh?.url ?? '';
  const database = fresh ? await fresh.open() : await openDatabase(url);
  const config = loadConfig({
    DATABASE_URL: url,
    PAYDESK_ADMIN_TOKEN: ADMIN_TOKEN,
    RATE_LIMIT_MAX: '10000',
    AUTH_FAILURE_LIMIT: '10000',
    PUBLIC_BASE_URL: 'http://paydesk.test',
    LOG_LEVEL: 'info',
    // One key for every test app (several share a database): no key file is made in the checkout.
    PAYDESK_ENCRYPTION_KEY: TEST_SECRET_KEY,
    ...options.env,
  });
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const log = pino(
    { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    stream,
  );
  const limiter = newLimiter(log, options.redisPrefix);
  // A shared store counts in-process until its first connection is up: tests start shared.
  for (let i = 0; i < 250 && limiter.status === 'unavailable'; i++)
    await new Promise((r) => setTimeout(r, 20));
  const app = await buildApp({
    config,
    database,
    limiter,
    loggerInstance: log,
    clock: options.clock,
    buildSerializer: serializers,
    // Serve only once every node has answered (or failed) its first questions, however loaded the
    // machine: a test's first invoice then sees what a real start sees after its wait (contract §21).
    probeTiming: { startWaitMs: 60_000 },
  });
  await app.ready();
  const workers: RunningJobs | undefined = options.workers
    ? await startWorkers({
        database,
        config,
        log: app.log,
        clock: options.clock,
        only: options.workers === true ? undefined : options.workers,
        deliveryTuning: options.deliveryTuning,
        mailTuning: options.mailTuning,
      })
    : undefined;
  return {
    app,
    database,
    databaseUrl: url,
    get logs() {
      return chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    rawLogs: () => chunks.join(''),
    workers,
    async close() {
      await workers?.stop();
      await app.close();
      await limiter.close();
      await database.close();
      await fresh?.drop();
    },
  };
}

function newLimiter(log: FastifyBaseLogger, prefix?: string): RateLimitStore {
  if (!TEST_REDIS_URL) return memoryStore();
  return resilientRedisStore(TEST_REDIS_URL, log, { prefix: prefix ?? `paydesk:test:${randomBase62(8)}:` });
}

export interface Merchant {
  accountId: string;
  projectId: string;
  keyId: string;
  secret: string;
  auth: { authorization: string };
}

/** Creates an account, a project and a key through the admin API, as an operator would. */
export async function createMerchant(
  app: FastifyInstance,
  project: Record<string, unknown> = {},
): Promise<Merchant> {
  const account = await admin(app, 'POST', '/v1/admin/accounts', { name: 'Test account' });
  const prj = await admin(app, 'POST', '/v1/admin/projects', {
    account_id: account.id,
    name: 'Test project',
    ...project,
  });
  const key = await admin(app, 'POST', `/v1/admin/projects/${prj.id}/api-keys`, { name: 'test' });
  return {
    accountId: account.id,
    projectId: prj.id,
    keyId: key.api_key.id,
    secret: key.secret,
    auth: { authorization: `Bearer ${key.secret}` },
  };
}

export async function admin(
  app: FastifyInstance,
  method: 'POST' | 'PATCH',
  url: string,
  body?: object,
): Promise<any> {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: body,
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export function createInvoice(
  app: FastifyInstance,
  m: Merchant,
  body: object = { amount: '10.00' },
  headers = {},
) {
  return app.inject({
    method: 'POST',
    url: '/v1/merchant/invoices',
    headers: { ...m.auth, ...headers },
    payload: body,
  });
}
