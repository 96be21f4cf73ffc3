import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { memoryStore } from '../src/http/rate-limit.js';
import { admin, createMerchant } from '../test/app.js';
import { inviteAndAccept, signIn } from '../test/dashboard.js';
import { seedInvoices, withClient } from './database.js';

/**
 * `npx tsx bench/dashboard.ts`: the dashboard's pages over a project with a million invoices (the
 * benchmark's own seed, bench/database.ts), timed in-process (app.inject: server time, no network),
 * then the CSV export of 100,000 invoices over a real socket, with the process's peak RSS.
 * PostgreSQL at BENCH_DATABASE_URL (default the test server), in a database of its own.
 */
const BASE = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const INVOICES = Number(process.env.BENCH_INVOICES || 1_000_000);
const CSV_INVOICES = Number(process.env.BENCH_CSV_INVOICES || 100_000);
const RUNS = Number(process.env.BENCH_RUNS || 50);
const NAME = 'paydesk_bench_dashboard';

async function onBase(text: string) {
  const client = new pg.Client({ connectionString: BASE });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

async function main() {
  await onBase(`drop database if exists ${NAME} with (force)`);
  await onBase(`create database ${NAME}`);
  const url = new URL(BASE);
  url.pathname = `/${NAME}`;
  const databaseUrl = url.toString();
  const database = await openDatabase(databaseUrl, { bounds: null });
  await migrate(database.db);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PAYDESK_ADMIN_TOKEN: 'test-admin-token-0123456789',
    RATE_LIMIT_MAX: '1000000',
    PUBLIC_BASE_URL: 'http://paydesk.bench',
    LOG_LEVEL: 'warn',
    PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  const app = await buildApp({ config, database, limiter: memoryStore(), logger: { level: 'warn' } });
  await app.ready();
  const m = await createMerchant(app, { name: 'Bench shop' });
  await admin(app, 'POST', `/v1/admin/projects/${m.projectId}/webhook-endpoints`, {
    url: 'http://127.0.0.1:9/bench',
  });
  process.stdout.write(`seeding ${INVOICES.toLocaleString('en-US')} invoices...\n`);
  let t0 = performance.now();
  await withClient(databaseUrl, (c) => seedInvoices(c, m.projectId, 1, INVOICES));
  process.stdout.write(`  seeded in ${Math.round((performance.now() - t0) / 1000)} s\n`);
  await inviteAndAccept(app, m.accountId, 'bench@shop.example');
  const owner = await signIn(app, 'bench@shop.example');

  const sample = await withClient(databaseUrl, async (c) => {
    const mid = await c.query(
      `select id, created_at from invoices where project_id = $1 order by created_at desc, id desc offset $2 limit 1`,
      [m.projectId, Math.floor(INVOICES / 2)],
    );
    return mid.rows[0] as { id: string; created_at: Date };
  });
  const pages: Array<[string, string]> = [
    ['Overview', '/dashboard'],
    ['Invoices, first page', '/dashboard/invoices'],
    ['Invoices, status=paid', '/dashboard/invoices?status=paid'],
    [
      'Invoices, page at 500k (keyset)',
      `/dashboard/invoices?after=${sample.created_at.getTime()}-${sample.id}`,
    ],
    ['Invoices, search by order id', '/dashboard/invoices?q=order-654321'],
    ['Invoices, search by invoice id', `/dashboard/invoices?q=${sample.id}`],
    ['Invoice detail', `/dashboard/invoices/${sample.id}`],
    ['API keys', '/dashboard/api-keys'],
    ['Webhooks', '/dashboard/webhooks'],
    ['Settings', '/dashboard/settings'],
    ['Team', '/dashboard/team'],
  ];
  const rows: string[] = [];
  for (const [n, [name, path]] of pages.entries()) {
    // One client address per page: the dashboard allows 600 requests a minute per address.
    const get = () =>
      app.inject({ url: path, headers: { cookie: owner.cookie }, remoteAddress: `10.0.0.${n + 1}` });
    for (let i = 0; i < 5; i++) await get(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const res = await get();
      times.push(performance.now() - start);
      if (res.statusCode !== 200) throw new Error(`${path} → ${res.statusCode}`);
    }
    times.sort((a, b) => a - b);
    const line = `| ${name} | ${pct(times, 50).toFixed(1)} | ${pct(times, 95).toFixed(1)} |`;
    rows.push(line);
    process.stdout.write(`${line}\n`);
  }

  // The export: a second project of CSV_INVOICES invoices, downloaded over a socket and discarded as it
  // arrives, so the RSS is the server's streaming, not a client holding the file.
  const csvMerchant = await createMerchant(app, { name: 'Bench CSV' });
  await withClient(databaseUrl, (c) => seedInvoices(c, csvMerchant.projectId, 1, CSV_INVOICES));
  await inviteAndAccept(app, csvMerchant.accountId, 'csv@shop.example');
  const csvOwner = await signIn(app, 'csv@shop.example');
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  t0 = performance.now();
  const res = await fetch(`${base}/dashboard/invoices/export.csv`, { headers: { cookie: csvOwner.cookie } });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const mib = (n: number) => (n / 1024 / 1024).toFixed(0);
  const csvLine = `| CSV export, ${(lines - 1).toLocaleString('en-US')} invoices (${mib(bytes)} MiB) | ${seconds.toFixed(2)} s | RSS ${mib(before)} → peak ${mib(peak)} MiB |`;
  process.stdout.write(`${csvLine}\n`);
  await app.close();
  await database.close();
  await onBase(`drop database if exists ${NAME} with (force)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
