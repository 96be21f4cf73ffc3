import { adminQuery } from './database.js';
import { type FaultProxy, startFaultProxy } from './fault-proxy.js';
import { type PrivatePostgres, privatePostgresAvailable, startPrivatePostgres } from './postgres-server.js';
import { callPaydesk, type PaydeskProcess, startPaydesk, tempDir } from './process.js';

/**
 * An operator's failure drill, as the probe of issue 20 ran it: creates under load on every instance,
 * a fault, then the database back; what every request and every health check answered meanwhile.
 * The test (database-faults.test.ts) asserts on it; bench/faults.ts prints it, before and after.
 */
export interface DrillReport {
  fault: string;
  /** Instances whose process ended during the drill. */
  exited: number;
  /** Answers to creates by status; 0 counts requests that failed with no answer at all. */
  statuses: Record<number, number>;
  /** The longest create, in ms, among those that answered. */
  longestMs: number;
  /** The health checks' answers while the database was away, by status, and the longest of them. */
  health: Record<number, number>;
  longestHealthMs: number;
  /** From the database being reachable again to the first 201 on every instance, in ms. */
  recoveryMs: number | undefined;
  /** Every 503 carried Retry-After and the contract's envelope. */
  wellFormed503: boolean;
}

export interface DrillOptions {
  name: string;
  instances: readonly PaydeskProcess[];
  secret: string;
  /** Breaks the database (or the way to it). */
  inject(): Promise<void> | void;
  /** Makes it reachable again; left out when the fault heals by itself (connections replaced). */
  restore?(): Promise<void> | void;
  /** Requests in flight at once, over all instances. */
  concurrency?: number;
  /** Give up waiting for a state after this long (the drill then reports what it saw). */
  patienceMs?: number;
}

const CREATE = { amount: '10.00' };
const NO_ANSWER = 0;

export async function drill(options: DrillOptions): Promise<DrillReport> {
  const { instances } = options;
  const patience = options.patienceMs ?? 60_000;
  const statuses: Record<number, number> = {};
  const health: Record<number, number> = {};
  let longestMs = 0;
  let longestHealthMs = 0;
  let wellFormed503 = true;
  let stopping = false;
  let faultOn = false;
  let restoredAt: number | undefined;
  const recovered = new Map<PaydeskProcess, number>();
  let saw503 = false;
  let exited = 0;
  for (const p of instances) void p.exited.then(() => exited++);

  const create = async (p: PaydeskProcess) => {
    const started = performance.now();
    let status = NO_ANSWER;
    try {
      const res = await fetch(`${p.baseUrl}/v1/merchant/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(CREATE),
        signal: AbortSignal.timeout(patience),
      });
      status = res.status;
      const body = await res.text();
      if (status === 503 && !(res.headers.get('retry-after') && body.includes('"INTERNAL_SERVER_ERROR"'))) {
        wellFormed503 = false;
      }
    } catch {
      status = NO_ANSWER;
    }
    const ms = performance.now() - started;
    longestMs = Math.max(longestMs, ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status === 503) saw503 = true;
    if (status === 201 && restoredAt !== undefined && !recovered.has(p) && started >= restoredAt) {
      recovered.set(p, performance.now() - restoredAt);
    }
    // An instance that no longer answers at all is not hammered in a tight loop.
    if (status === NO_ANSWER) await new Promise((r) => setTimeout(r, 50));
  };

  const loops = Array.from({ length: options.concurrency ?? 8 }, async (_, i) => {
    const p = instances[i % instances.length] as PaydeskProcess;
    while (!stopping) await create(p);
  });

  const checkHealth = async () => {
    while (!stopping) {
      for (const p of instances) {
        if (!faultOn) continue;
        const started = performance.now();
        let status = NO_ANSWER;
        try {
          status = (await fetch(`${p.baseUrl}/v1/health`, { signal: AbortSignal.timeout(patience) })).status;
        } catch {
          status = NO_ANSWER;
        }
        if (!faultOn) continue;
        longestHealthMs = Math.max(longestHealthMs, performance.now() - started);
        health[status] = (health[status] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const healthLoop = checkHealth();

  const until = async (done: () => boolean) => {
    const deadline = performance.now() + patience;
    while (!done() && performance.now() < deadline && exited < instances.length) {
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  await until(() => (statuses[201] ?? 0) >= 20);
  faultOn = true;
  await options.inject();
  if (options.restore) {
    // The fault lasts until it has been seen: a 503, and a health check that answered during it.
    await until(() => saw503 && Object.keys(health).length > 0);
    await options.restore();
  }
  faultOn = false;
  restoredAt = performance.now();
  await until(() => recovered.size === instances.length);
  stopping = true;
  await Promise.all([...loops, healthLoop]);
  const times = [...recovered.values()];
  return {
    fault: options.name,
    exited,
    statuses,
    longestMs: Math.round(longestMs),
    health,
    longestHealthMs: Math.round(longestHealthMs),
    recoveryMs: times.length === instances.length ? Math.round(Math.max(...times)) : undefined,
    wellFormed503,
  };
}

/** Two Paydesk processes on one PostgreSQL database, reached through a fault proxy. */
export interface FaultRig {
  instances: PaydeskProcess[];
  secret: string;
  projectId: string;
  proxy: FaultProxy;
  /** Our own server, when this machine can run one (so it can be stopped); else undefined. */
  server: PrivatePostgres | undefined;
  /** The drill's database, reached directly (not through the proxy). */
  databaseUrl: string;
  /** Starts a new process in place of each (the bench does, to drill each fault on fresh instances). */
  replaceAll(): Promise<void>;
  close(): Promise<void>;
}

export const RIG_ADMIN_TOKEN = 'faults-admin-token-7Hq2Lx9';

export async function startFaultRig(options: {
  env?: Record<string, string>;
  main?: string;
  /** A PostgreSQL server to use when no private one can be run (the test server). */
  fallbackUrl?: string;
}): Promise<FaultRig> {
  const server = privatePostgresAvailable ? await startPrivatePostgres() : undefined;
  const base = server?.url ?? options.fallbackUrl;
  if (!base) throw new Error('no PostgreSQL server for the fault drill');
  const target = new URL(base);
  const name = `paydesk_faults_${process.pid}`;
  await adminQuery(`drop database if exists ${name} with (force)`, base);
  await adminQuery(`create database ${name}`, base);
  target.pathname = `/${name}`;
  const databaseUrl = target.toString();
  const proxy = await startFaultProxy(target.hostname, Number(target.port || 5432));
  const env = {
    DATABASE_URL: proxy.url(databaseUrl),
    PAYDESK_ADMIN_TOKEN: RIG_ADMIN_TOKEN,
    PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_MAX: '1000000',
    ...options.env,
  };
  // One first (it migrates), then the second.
  const first = await startPaydesk({ cwd: await tempDir(), env, main: options.main });
  await first.ready();
  const second = await startPaydesk({ cwd: await tempDir(), env, main: options.main });
  await second.ready();
  const call = (method: string, url: string, body?: object) =>
    callPaydesk(first.baseUrl, method, url, RIG_ADMIN_TOKEN, body);
  const account = await call('POST', '/v1/admin/accounts', { name: 'faults' });
  const project = await call('POST', '/v1/admin/projects', { account_id: account.id, name: 'faults' });
  const secret = (await call('POST', `/v1/admin/projects/${project.id}/api-keys`, {})).secret;
  const instances = [first, second];
  return {
    instances,
    secret,
    projectId: project.id,
    proxy,
    server,
    databaseUrl,
    async replaceAll() {
      for (const [i, p] of instances.entries()) {
        await p.stop('SIGKILL');
        const next = await startPaydesk({ cwd: await tempDir(), env, main: options.main });
        await next.ready();
        instances[i] = next;
      }
    },
    async close() {
      await Promise.all(instances.map((p) => p.stop('SIGKILL')));
      await proxy.close();
      if (server) server.remove();
      else await adminQuery(`drop database if exists ${name} with (force)`, base);
    },
  };
}

/** Each fault of the drill: how to cause it and, for those that do not heal by themselves, how to end it. */
export const FAULTS: ReadonlyArray<{
  name: string;
  inject(rig: FaultRig): Promise<void> | void;
  restore?(rig: FaultRig): Promise<void> | void;
  needsPrivateServer?: boolean;
}> = [
  {
    name: 'pg_terminate_backend of every session',
    inject: (rig) =>
      adminQuery(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        rig.databaseUrl,
      ),
  },
  { name: 'every connection reset (RST)', inject: (rig) => rig.proxy.reset() },
  { name: 'every connection closed (FIN)', inject: (rig) => rig.proxy.cut() },
  {
    name: 'database silent (partition)',
    inject: (rig) => rig.proxy.blackhole(),
    restore: (rig) => rig.proxy.restore(),
  },
  { name: 'old connections silent for good', inject: (rig) => rig.proxy.silenceExisting() },
  {
    name: 'PostgreSQL stopped -m immediate, restarted',
    inject: (rig) => rig.server?.stopImmediately(),
    restore: (rig) => rig.server?.start(),
    needsPrivateServer: true,
  },
];
