import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { memoryStore } from '../src/http/rate-limit.js';
import { startWorkers } from '../src/workers.js';

/**
 * `npx tsx bench/webhooks.ts`: webhook delivery to a local receiver, in one process (app, worker and
 * receiver share the event loop, so the figures are a floor for what separate processes would do).
 *   - latency: from the invoice's commit (the create call returning) to the receiver seeing its
 *     invoice.created, one invoice at a time on an idle system;
 *   - throughput: a backlog of events queued while the worker is stopped, then drained.
 * PGlite in memory by default; BENCH_DATABASE_URL=postgres://…/postgres uses a throw-away database there.
 */
const LATENCY_SAMPLES = 200;
const BACKLOG = 2_000;
const FAN_OUT_EVENTS = 300;
const FAN_OUT_ENDPOINTS = 10;
const ADMIN = { authorization: 'Bearer bench-admin-token-0123456789' };

async function main() {
  const { url, drop } = await database();
  const handle = await openDatabase(url, { bounds: null });
  await migrate(handle.db);
  const config = loadConfig({
    DATABASE_URL: url,
    PAYDESK_ADMIN_TOKEN: ADMIN.authorization.slice('Bearer '.length),
    PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_MAX: '1000000000',
    LOG_LEVEL: 'warn',
  });
  const app = await buildApp({ config, database: handle, limiter: memoryStore(), logger: { level: 'warn' } });
  const log = app.log;
  const receiver = await startReceiver();
  const call = async (method: 'POST' | 'GET', path: string, body?: object, headers = ADMIN) => {
    const res = await app.inject({ method, url: path, headers, ...(body ? { payload: body } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const merchant = async (endpoints: number) => {
    const account = await call('POST', '/v1/admin/accounts', { name: 'bench' });
    const project = await call('POST', '/v1/admin/projects', { account_id: account.id, name: 'bench' });
    const key = await call('POST', `/v1/admin/projects/${project.id}/api-keys`, {});
    for (let i = 0; i < endpoints; i++) {
      await call('POST', `/v1/admin/projects/${project.id}/webhook-endpoints`, {
        url: `${receiver.url}/${i}`,
      });
    }
    const auth = { authorization: `Bearer ${key.secret}` };
    return {
      create: () => call('POST', '/v1/merchant/invoices', { amount: '10.00' }, auth),
      projectId: project.id,
    };
  };
  const worker = () => startWorkers({ database: handle, config, log, only: ['webhook-delivery'] });

  process.stdout.write(`webhooks on ${handle.kind}\n`);
  const running = await worker();
  const first = await merchant(1);
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const arrived = receiver.next();
    await first.create();
    const committed = performance.now();
    latencies.push((await arrived) - committed);
  }
  // Stopping waits for the attempts in flight to be recorded, so the log read below is complete.
  await running.stop();
  const [endpoint] = await call('GET', `/v1/admin/projects/${first.projectId}/webhook-endpoints`);
  const durations: number[] = [];
  for (let page = 1; ; page++) {
    const log = await call(
      'GET',
      `/v1/admin/webhook-endpoints/${endpoint.id}/deliveries?limit=100&page=${page}`,
    );
    if (log.length === 0) break;
    durations.push(...log.map((a: { duration_ms: number }) => a.duration_ms));
  }
  process.stdout.write(
    `  commit → first attempt: ${percentiles(latencies)} (${LATENCY_SAMPLES} events, one at a time)\n` +
      `  of which the POST itself: ${percentiles(durations)}\n`,
  );

  for (const [label, events, endpoints] of [
    ['one endpoint', BACKLOG, 1],
    [`${FAN_OUT_ENDPOINTS} endpoints`, FAN_OUT_EVENTS, FAN_OUT_ENDPOINTS],
  ] as const) {
    const { create } = await merchant(endpoints);
    for (let i = 0; i < events; i++) await create();
    const deliveries = events * endpoints;
    const done = receiver.after(deliveries);
    const started = performance.now();
    const drain = await worker();
    await done;
    const seconds = (performance.now() - started) / 1000;
    await drain.stop();
    process.stdout.write(
      `  backlog, ${label}: ${deliveries} deliveries in ${seconds.toFixed(2)} s = ${Math.round(deliveries / seconds)} deliveries/s\n`,
    );
  }

  await receiver.close();
  await app.close();
  await handle.close();
  await drop();
}

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(1);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`;
}

/** A receiver answering 204 at once; `next()` resolves at the next request, `after(n)` after n more. */
async function startReceiver() {
  let count = 0;
  let waiters: Array<{ at: number; resolve: (t: number) => void }> = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      const now = performance.now();
      for (const w of waiters) if (count >= w.at) w.resolve(now);
      waiters = waiters.filter((w) => count < w.at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const after = (n: number) => new Promise<number>((resolve) => waiters.push({ at: count + n, resolve }));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    next: () => after(1),
    after,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function database(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { url: 'pglite://memory', drop: async () => {} };
  const name = 'paydesk_bench_webhooks';
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
