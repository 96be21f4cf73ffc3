import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_XPUB, TRON_TEST_XPUB } from '../test/chain/wallet.js';
import { benchDatabase, seedInvoices, withClient } from './database.js';
import { type LoadRequest, type LoadSettings, type Measurement, measure } from './load.js';
import { assertAllAlive, type Child, killAllNow, stopAll } from './processes.js';
import { rateSources } from './rates.js';
import { type BenchResults, formatTable, judge, type Row } from './report.js';
import { adminAuth, newMerchant, post, startFloor, startPaydesk } from './servers.js';

/**
 * `npm run bench`: Paydesk (a real child process on its own PostgreSQL database) against the floor
 * (bench/floor.ts), under autocannon. See bench/README.md for what it measures and how to read it.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The Paydesk under test: this checkout, or BENCH_PAYDESK_ROOT, another checkout (an older commit's
 * worktree with its own node_modules), built and served there against this checkout's fixed floor:
 * how the per-commit table in bench/README.md is measured, every commit in one run of one harness.
 */
const PAYDESK_ROOT = process.env.BENCH_PAYDESK_ROOT ? path.resolve(process.env.BENCH_PAYDESK_ROOT) : ROOT;
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
/**
 * BENCH_QUICK=1: create, get and list against the floor, nothing else (no priced or chain creates, no
 * seeded list): the few seconds CI spends printing what a create costs (issue 37).
 */
const quick = Boolean(process.env.BENCH_QUICK);
const database = benchDatabase(process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');

/** One measured run of a server (its RSS and CPU sampled), reported as it finishes. */
async function run(label: string, request: LoadRequest, server: Child): Promise<Measurement> {
  const m = await measure(settings, request, server.process.pid as number);
  assertAllAlive();
  const failed = m.failures ? `  (${m.failures} failed: ${JSON.stringify(m.statusCodes)})` : '';
  const cpu = `CPU/request ${Math.round(m.cpu.serverUs)} µs + database ${Math.round(m.cpu.databaseUs)} µs + load generator ${Math.round(m.cpu.loadUs)} µs`;
  process.stdout.write(
    `  ${label.padEnd(34)} ${Math.round(m.rps)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ${cpu}, load ${loadavg()[0]?.toFixed(1)}${failed}\n`,
  );
  return m;
}

const listPage = (paydesk: Child, auth: string): LoadRequest => ({
  url: `${paydesk.baseUrl}/v1/merchant/invoices?limit=20`,
  headers: { authorization: auth },
});

/** create and get on both servers (the floor first), then Paydesk's list on the project create filled. */
async function hotPaths(paydesk: Child, floor: Child): Promise<Row[]> {
  const merchant = await newMerchant(paydesk, 'bench');
  const body = { amount: '12.50', order_id: 'order-bench' };
  const json = { 'content-type': 'application/json' };
  const invoices = `${paydesk.baseUrl}/v1/merchant/invoices`;
  const paydeskInvoice = await post(invoices, merchant.auth, body);
  const floorInvoice = await post(`${floor.baseUrl}/invoices`, '', body);
  const create = (url: string, headers: Record<string, string>): LoadRequest => ({
    url,
    method: 'POST',
    headers: { ...json, ...headers },
    body: JSON.stringify(body),
  });
  return [
    {
      scenario: 'create',
      floor: await run('create, floor', create(`${floor.baseUrl}/invoices`, {}), floor),
      paydesk: await run('create, paydesk', create(invoices, { authorization: merchant.auth }), paydesk),
    },
    ...(quick ? [] : await pricedCreates(paydesk, create)),
    ...(quick ? [] : await chainCreates(paydesk, create)),
    {
      scenario: 'get',
      floor: await run('get, floor', { url: `${floor.baseUrl}/invoices/${floorInvoice.id}` }, floor),
      paydesk: await run(
        'get, paydesk',
        { url: `${invoices}/${paydeskInvoice.id}`, headers: { authorization: merchant.auth } },
        paydesk,
      ),
    },
    {
      scenario: 'list (limit 20)',
      floor: await run('list, floor', { url: `${floor.baseUrl}/invoices` }, floor),
      paydesk: await run('list, paydesk', listPage(paydesk, merchant.auth), paydesk),
    },
  ];
}

/**
 * Creates on chain projects, which derive their deposit addresses (the sandbox's are synthetic): one
 * method (USDT on Polygon, the project shape of before payment methods), then three methods on two
 * families (contract §15: USDT on Polygon, USDC on Base, USDT on TRON, priced in USD), which derives
 * two addresses from two xpub counters and stores three offers. No floor of their own. A Paydesk from
 * before payment methods refuses the second project: that row is left out.
 */
async function chainCreates(
  paydesk: Child,
  create: (url: string, headers: Record<string, string>) => LoadRequest,
): Promise<Row[]> {
  const url = `${paydesk.baseUrl}/v1/merchant/invoices`;
  const rows: Row[] = [];
  const oneMethod = await newMerchant(paydesk, 'bench-polygon', { network: 'polygon', xpub: TEST_XPUB });
  rows.push({
    scenario: 'create, 1 chain method',
    paydesk: await run(
      'create (USDT on Polygon), paydesk',
      create(url, { authorization: oneMethod.auth }),
      paydesk,
    ),
  });
  let threeMethods: { auth: string };
  try {
    threeMethods = await newMerchant(paydesk, 'bench-methods', {
      currency: 'USD',
      payment_methods: [
        { network: 'polygon', currency: 'USDT' },
        { network: 'base', currency: 'USDC' },
        { network: 'tron', currency: 'USDT' },
      ],
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
    });
  } catch {
    process.stdout.write('  create, 3 methods: not supported by this Paydesk, skipped\n');
    return rows;
  }
  rows.push({
    scenario: 'create, 3 methods',
    paydesk: await run(
      'create (3 methods), paydesk',
      create(url, { authorization: threeMethods.auth }),
      paydesk,
    ),
  });
  return rows;
}

/**
 * Creates priced in USD (at par) and in EUR (at a locked rate, contract §19), back to back on sandbox
 * projects: what the rate lookup costs a create. The rate sources are a local server answering in
 * Kraken's and Coinbase's formats (bench/rates.ts); how often Paydesk asked them during the EUR run is
 * read from its metrics: about once per source per PAYDESK_RATE_CACHE_SECONDS, whatever the load.
 */
async function pricedCreates(
  paydesk: Child,
  create: (url: string, headers: Record<string, string>) => LoadRequest,
): Promise<Row[]> {
  const url = `${paydesk.baseUrl}/v1/merchant/invoices`;
  const usd = await newMerchant(paydesk, 'bench-usd', { currency: 'USD' });
  let eur: { auth: string };
  try {
    eur = await newMerchant(paydesk, 'bench-eur', { currency: 'EUR' });
  } catch {
    process.stdout.write('  create, EUR: not supported by this Paydesk, skipped\n');
    return [];
  }
  // In the order USD, EUR, EUR, USD: a later run costs more as the tables grow, and the mirrored
  // order cancels that drift out of the comparison. Each row is the mean of its two runs.
  const usdFirst = await run('create (USD), paydesk', create(url, { authorization: usd.auth }), paydesk);
  const before = await rateSourceCalls(paydesk);
  const eurFirst = await run('create (EUR), paydesk', create(url, { authorization: eur.auth }), paydesk);
  const eurSecond = await run('create (EUR), paydesk', create(url, { authorization: eur.auth }), paydesk);
  const after = await rateSourceCalls(paydesk);
  const usdSecond = await run('create (USD), paydesk', create(url, { authorization: usd.auth }), paydesk);
  const calls = Object.entries(after).map(([source, n]) => `${source} ${n - (before[source] ?? 0)}`);
  const creates = eurFirst.requests + eurSecond.requests;
  process.stdout.write(
    `  rate source calls during the two EUR runs (${creates.toLocaleString('en-US')} creates): ${calls.join(', ')}\n`,
  );
  const usdRow = meanOf(usdFirst, usdSecond);
  const eurRow = meanOf(eurFirst, eurSecond);
  process.stdout.write(
    `  create EUR / USD (means of the mirrored runs): ${(eurRow.rps / usdRow.rps).toFixed(2)}x req/s\n`,
  );
  return [
    { scenario: 'create, USD', paydesk: usdRow },
    { scenario: 'create, EUR', paydesk: eurRow },
  ];
}

/** Two runs of one scenario as one: the mean of each figure (the worse p99 and peak RSS). */
function meanOf(a: Measurement, b: Measurement): Measurement {
  const mean = (x: number, y: number) => (x + y) / 2;
  return {
    ...a,
    rps: mean(a.rps, b.rps),
    p50Ms: mean(a.p50Ms, b.p50Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    requests: a.requests + b.requests,
    failures: a.failures + b.failures,
    cpu: {
      serverUs: mean(a.cpu.serverUs, b.cpu.serverUs),
      databaseUs: mean(a.cpu.databaseUs, b.cpu.databaseUs),
      loadUs: mean(a.cpu.loadUs, b.cpu.loadUs),
    },
    maxRssBytes: Math.max(a.maxRssBytes ?? 0, b.maxRssBytes ?? 0),
  };
}

async function rateSourceCalls(paydesk: Child): Promise<Record<string, number>> {
  const res = await fetch(`${paydesk.baseUrl}/v1/admin/metrics`, { headers: { authorization: adminAuth() } });
  const body = (await res.json()) as { data: { rate_source_calls?: Record<string, number> } };
  return body.data.rate_source_calls ?? {};
}

/** The first page of a second project with 1k invoices, then with `bigList`, both seeded with SQL. */
async function listScaling(paydesk: Child): Promise<[Row, Row]> {
  const merchant = await newMerchant(paydesk, 'bench-list');
  const page = listPage(paydesk, merchant.auth);
  const measureAt = async (from: number, to: number): Promise<Row> => {
    process.stdout.write(`  seeding ${(to - from + 1).toLocaleString('en-US')} invoices with SQL...\n`);
    await withClient(database.url, (c) => seedInvoices(c, merchant.projectId, from, to));
    const first = (await (await fetch(page.url, { headers: page.headers })).json()) as any;
    if (first.meta?.pagination?.total !== to) throw new Error(`list total is not ${to} after seeding`);
    const scenario = `list, ${to >= 1_000_000 ? `${to / 1_000_000}M` : `${to / 1000}k`} invoices`;
    return { scenario, paydesk: await run(`${scenario}, paydesk`, page, paydesk) };
  };
  return [await measureAt(1, SMALL_LIST), await measureAt(SMALL_LIST + 1, bigList)];
}

type Backend = 'postgres' | 'pglite';

/** What one backend's run measured. */
interface BackendResults extends BenchResults {
  backend: Backend;
  /** Batch sizes of the creates and of the gets during the measured runs: per statement. */
  batches: { creates: BatchFigures; reads: BatchFigures };
}

interface BatchFigures {
  statements: number;
  requests: number;
  p50: number;
  max: number;
}

type Histogram = Record<string, number>;

/** The batch sizes of what `measure` did, from Paydesk's own metrics before and after it (/v1/admin/metrics). */
async function batchSizesOf(paydesk: Child, measure: () => Promise<Row[]>) {
  const metrics = async () => {
    const res = await fetch(`${paydesk.baseUrl}/v1/admin/metrics`, {
      headers: { authorization: adminAuth() },
    });
    // A Paydesk from before the metrics existed (a baseline run) reports no batches.
    if (res.status === 404) return { creates: {}, reads: {} };
    const body = (await res.json()) as {
      data: { invoice_creates: { batch_sizes: Histogram }; invoice_reads: { batch_sizes: Histogram } };
    };
    return { creates: body.data.invoice_creates.batch_sizes, reads: body.data.invoice_reads.batch_sizes };
  };
  const before = await metrics();
  const rows = await measure();
  const after = await metrics();
  return {
    rows,
    batches: { creates: figures(before.creates, after.creates), reads: figures(before.reads, after.reads) },
  };
}

function figures(before: Histogram, after: Histogram): BatchFigures {
  const sizes = Object.entries(after)
    .map(([size, n]) => [Number(size), n - (before[size] ?? 0)] as const)
    .filter(([, n]) => n > 0)
    .sort((x, y) => x[0] - y[0]);
  const statements = sizes.reduce((acc, [, n]) => acc + n, 0);
  let upTo = 0;
  let p50 = 0;
  for (const [size, n] of sizes) {
    upTo += n;
    if (upTo >= statements / 2) {
      p50 = size;
      break;
    }
  }
  return {
    statements,
    requests: sizes.reduce((acc, [size, n]) => acc + size * n, 0),
    p50,
    max: sizes.at(-1)?.[0] ?? 0,
  };
}

async function runBackend(backend: Backend): Promise<BackendResults> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'paydesk-bench-'));
  const urls =
    backend === 'postgres'
      ? { paydesk: database.url, floor: database.url }
      : { paydesk: `pglite://${scratch}/paydesk`, floor: `pglite://${scratch}/floor` };
  if (backend === 'postgres') await database.recreate();
  try {
    const { child: paydesk, runtime } = await startPaydesk({
      root: PAYDESK_ROOT,
      results: RESULTS,
      databaseUrl: urls.paydesk,
      profile: Boolean(process.env.BENCH_CPU_PROF),
      env: rates.env,
    });
    runtimeUsed = runtime;
    const floor = await startFloor({ results: RESULTS, databaseUrl: urls.floor });
    process.stdout.write(
      `\n${backend}: ${settings.seconds} s per run after ${settings.warmupSeconds} s warm-up\n`,
    );
    const { rows, batches } = await batchSizesOf(paydesk, () => hotPaths(paydesk, floor));
    const named = (scenario: string) => rows.find((r) => r.scenario === scenario) as Row;
    const [create, get, list] = [named('create'), named('get'), named('list (limit 20)')];
    const chainCreates = rows.filter((r) => r.scenario.startsWith('create, '));
    // Seeding a million rows is for the server's list: PGlite's list is measured at what create left.
    const seeded = backend === 'postgres' && !quick;
    const [listSmall, listLarge] = seeded ? await listScaling(paydesk) : [list, list];
    await stopAll();
    const all = seeded
      ? [create, ...chainCreates, get, list, listSmall, listLarge]
      : [create, ...chainCreates, get, list];
    const maxRssBytes = Math.max(...all.map((r) => r.paydesk.maxRssBytes ?? 0));
    const floorMaxRssBytes = Math.max(...all.map((r) => r.floor?.maxRssBytes ?? 0));
    return {
      backend,
      rows: all,
      create,
      get,
      list,
      listSmall,
      listLarge,
      maxRssBytes,
      floorMaxRssBytes,
      batches,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

let runtimeUsed = '';

let rates: Awaited<ReturnType<typeof rateSources>>;

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  rates = await rateSources();
  const backends = (process.env.BENCH_DATABASES || 'postgres,pglite').split(',') as Backend[];
  const pgVersion = await withClient(
    database.baseUrl,
    async (c) => (await c.query('show server_version')).rows[0],
  );
  const results: BackendResults[] = [];
  for (const backend of backends) results.push(await runBackend(backend));

  for (const r of results) {
    const targets = judge(r);
    const engine = r.backend === 'postgres' ? `PostgreSQL ${pgVersion.server_version}` : 'PGlite (embedded)';
    const header =
      `Paydesk (${runtimeUsed}) vs floor on ${engine}, ${cpus().length} CPUs, ` +
      `${settings.connections} connections, ${settings.seconds} s per run after ${settings.warmupSeconds} s warm-up, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`;
    const line = (what: string, f: BatchFigures) =>
      `${what}: ${f.requests.toLocaleString('en-US')} requests in ${f.statements.toLocaleString('en-US')} statements; batch size p50 ${f.p50}, max ${f.max}`;
    const batchLine = `${line('Group commit, creates', r.batches.creates)}\n${line('Batched reads, gets', r.batches.reads)}`;
    process.stdout.write(`\n${formatTable(header, r, targets)}\n${batchLine}\n`);
    r.targets = targets;
  }
  const file = path.join(RESULTS, 'latest.json');
  const report = {
    date: new Date().toISOString(),
    runtime: runtimeUsed,
    postgres: pgVersion.server_version,
    cpus: cpus().length,
    loadAverage: loadavg(),
    settings: { ...settings, invoices: bigList },
    results,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nWritten to ${path.relative(process.cwd(), file)}\n`);
}

// Children are stopped and the database dropped however the run ends: success, failure or Ctrl-C.
let cleaned: Promise<void> | undefined;
const cleanup = () => {
  cleaned ??= (async () => {
    await stopAll();
    await rates?.close();
    await database.release(!process.env.BENCH_KEEP_DB).catch(() => {});
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
