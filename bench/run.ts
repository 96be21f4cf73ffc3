import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabase, seedInvoices, withClient } from './database.js';
import { type LoadSettings, type Measurement, measure } from './load.js';
import { type Child, freePort, killAllNow, startChild, stopAll } from './processes.js';
import { type BenchResults, formatTable, judge, type Row } from './report.js';

/**
 * `npm run bench`: Paydesk (a real child process on its own PostgreSQL database) against the floor
 * (bench/floor.ts), under autocannon. See bench/README.md for what it measures and how to read it.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = path.join(ROOT, 'bench', 'results');
const SMALL_LIST = 1_000;

const int = (name: string, fallback: number) => {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (got "${v}")`);
  return n;
};

const settings: LoadSettings = {
  connections: int('BENCH_CONNECTIONS', 50),
  seconds: int('BENCH_SECONDS', 10),
  warmupSeconds: int('BENCH_WARMUP_SECONDS', 3),
};
const bigList = Math.max(int('BENCH_INVOICES', 1_000_000), SMALL_LIST + 1);
const database = benchDatabase(process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
const adminToken = randomBytes(24).toString('hex');

/** What a user runs in production: the compiled build. Falls back to tsx if the build fails. */
function paydeskCommand(): { args: string[]; runtime: string } {
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(RESULTS, 'profiles')}`]
    : [];
  if (process.env.BENCH_RUNTIME !== 'tsx') {
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status === 0 && existsSync(path.join(ROOT, 'dist', 'main.js'))) {
      return { args: [...profile, 'dist/main.js'], runtime: 'node dist/main.js' };
    }
    process.stdout.write(`npm run build failed; measuring tsx instead:\n${build.stdout}${build.stderr}\n`);
  }
  return { args: [...profile, '--import', 'tsx', 'src/main.ts'], runtime: 'node --import tsx src/main.ts' };
}

async function post(url: string, auth: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: any; message?: string };
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${json.message}`);
  return json.data ?? json;
}

/** An account, a project and a key through the admin API; returns the merchant's Authorization value. */
async function newMerchant(paydesk: Child, name: string) {
  const admin = `Bearer ${adminToken}`;
  const account = await post(`${paydesk.baseUrl}/v1/admin/accounts`, admin, { name });
  const project = await post(`${paydesk.baseUrl}/v1/admin/projects`, admin, { account_id: account.id, name });
  const key = await post(`${paydesk.baseUrl}/v1/admin/projects/${project.id}/api-keys`, admin, {});
  return { projectId: project.id as string, auth: `Bearer ${key.secret}` };
}

function progress(label: string, m: Measurement) {
  const failed = m.failures ? `  (${m.failures} failed: ${JSON.stringify(m.statusCodes)})` : '';
  process.stdout.write(
    `  ${label.padEnd(34)} ${Math.round(m.rps)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms${failed}\n`,
  );
}

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  const { args, runtime } = paydeskCommand();
  await database.recreate();
  const pgVersion = await withClient(
    database.url,
    async (c) => (await c.query('show server_version')).rows[0].server_version,
  );

  const paydeskPort = await freePort();
  const paydesk = await startChild({
    name: 'paydesk',
    args,
    port: paydeskPort,
    healthPath: '/v1/health',
    logPath: path.join(RESULTS, 'paydesk.log'),
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      PORT: String(paydeskPort),
      HOST: '127.0.0.1',
      // Raised, not removed: every request still goes through the limiter.
      RATE_LIMIT_MAX: '1000000000',
      PAYDESK_ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'warn',
      REDIS_URL: process.env.BENCH_REDIS_URL,
    },
  });
  const pid = paydesk.process.pid as number;
  const floorPort = await freePort();
  const floor = await startChild({
    name: 'floor',
    args: ['--import', 'tsx', 'bench/floor.ts'],
    port: floorPort,
    healthPath: '/health',
    logPath: path.join(RESULTS, 'floor.log'),
    env: { PATH: process.env.PATH, DATABASE_URL: database.url, PORT: String(floorPort) },
  });

  const merchant = await newMerchant(paydesk, 'bench');
  const json = { 'content-type': 'application/json' };
  const body = JSON.stringify({ amount: '12.50', order_id: 'order-bench' });
  const paydeskCreate = {
    url: `${paydesk.baseUrl}/v1/merchant/invoices`,
    method: 'POST' as const,
    headers: { ...json, authorization: merchant.auth },
    body,
  };
  const floorCreate = { url: `${floor.baseUrl}/invoices`, method: 'POST' as const, headers: json, body };
  const paydeskInvoice = await post(paydeskCreate.url, merchant.auth, JSON.parse(body));
  const floorInvoice = await post(floorCreate.url, '', JSON.parse(body));

  const run = async (label: string, request: Parameters<typeof measure>[1], sampled: boolean) => {
    const m = await measure(settings, request, sampled ? pid : undefined);
    progress(label, m);
    return m;
  };
  process.stdout.write(
    `Measuring (${settings.seconds} s per run after ${settings.warmupSeconds} s warm-up):\n`,
  );
  const create: Row = {
    scenario: 'create',
    floor: await run('create, floor', floorCreate, false),
    paydesk: await run('create, paydesk', paydeskCreate, true),
  };
  const get: Row = {
    scenario: 'get',
    floor: await run('get, floor', { url: `${floor.baseUrl}/invoices/${floorInvoice.id}` }, false),
    paydesk: await run(
      'get, paydesk',
      { url: `${paydeskCreate.url}/${paydeskInvoice.id}`, headers: { authorization: merchant.auth } },
      true,
    ),
  };
  const listOf = (auth: string) => ({
    url: `${paydeskCreate.url}?limit=20`,
    headers: { authorization: auth },
  });
  const list: Row = {
    scenario: 'list (limit 20)',
    paydesk: await run('list, paydesk', listOf(merchant.auth), true),
  };

  const scaled = await newMerchant(paydesk, 'bench-list');
  const seedTo = async (from: number, to: number) => {
    process.stdout.write(`  seeding ${(to - from + 1).toLocaleString('en-US')} invoices with SQL...\n`);
    await withClient(database.url, (c) => seedInvoices(c, scaled.projectId, from, to));
    const page = await (
      await fetch(listOf(scaled.auth).url, { headers: listOf(scaled.auth).headers })
    ).json();
    if ((page as any).meta?.pagination?.total !== to)
      throw new Error(`list total is not ${to} after seeding`);
  };
  const listRow = async (n: number): Promise<Row> => {
    const scenario = `list, ${n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`} invoices`;
    return { scenario, paydesk: await run(`${scenario}, paydesk`, listOf(scaled.auth), true) };
  };
  await seedTo(1, SMALL_LIST);
  const listSmall = await listRow(SMALL_LIST);
  await seedTo(SMALL_LIST + 1, bigList);
  const listLarge = await listRow(bigList);

  const rows = [create, get, list, listSmall, listLarge];
  const maxRssBytes = Math.max(...rows.map((r) => r.paydesk.maxRssBytes ?? 0));
  const results: BenchResults = { rows, create, get, listSmall, listLarge, maxRssBytes };
  const targets = judge(results);
  const header =
    `Paydesk (${runtime}) vs floor, PostgreSQL ${pgVersion}, ${cpus().length} CPUs, ` +
    `${settings.connections} connections, ${settings.seconds} s per run after ${settings.warmupSeconds} s warm-up`;
  process.stdout.write(`\n${formatTable(header, results, targets)}\n`);
  const file = path.join(RESULTS, 'latest.json');
  const report = {
    date: new Date().toISOString(),
    runtime,
    postgres: pgVersion,
    cpus: cpus().length,
    settings,
    rows,
    maxRssBytes,
    targets,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nWritten to ${path.relative(process.cwd(), file)}\n`);
}

let cleaned: Promise<void> | undefined;
const cleanup = () => {
  cleaned ??= (async () => {
    await stopAll();
    if (!process.env.BENCH_KEEP_DB) await database.drop().catch(() => {});
  })();
  return cleaned;
};
process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}

try {
  await main();
} catch (err) {
  process.stderr.write(`bench failed: ${(err as Error)?.stack ?? err}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
