import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabase } from './database.js';
import { type LoadRequest, measure } from './load.js';
import { killAllNow, stopAll } from './processes.js';
import { byStage, type Cost, readProfile } from './profile-report.js';
import { newMerchant, startPaydesk } from './servers.js';

/**
 * `npm run bench:profile`: where the time of a create (or, with BENCH_PROFILE=get or list, a get or a
 * first page) goes. Paydesk's production build runs under `node --cpu-prof` on a fresh
 * `paydesk_bench` database, 50 connections send the scenario's request for BENCH_SECONDS (after a
 * warm-up), and the profile is read back: the process's time per request, by stage of the request
 * (HTTP, auth, validation, pricing, insert, serialisation…) and by function. Samples before the
 * scenario's first request (start-up, the creates a get or a list reads) are left out.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Another checkout to profile (an older commit's worktree with its own node_modules), as in run.ts. */
const PAYDESK_ROOT = process.env.BENCH_PAYDESK_ROOT ? path.resolve(process.env.BENCH_PAYDESK_ROOT) : ROOT;
const RESULTS = path.join(ROOT, 'bench', 'results');
const PROFILES = path.join(RESULTS, 'profiles');
const seconds = Number(process.env.BENCH_SECONDS || 10);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS || 3);
const scenario = (process.env.BENCH_PROFILE || 'create') as 'create' | 'get' | 'list';
/** The profile counts from the first sample in the scenario's service function. */
const FIRST_FUNCTION = { create: 'createInvoice', get: 'getInvoice', list: 'listInvoices' };
if (!(scenario in FIRST_FUNCTION)) throw new Error('BENCH_PROFILE must be create, get or list');
const database = benchDatabase(process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  rmSync(PROFILES, { recursive: true, force: true });
  await database.recreate();
  const { child } = await startPaydesk({
    root: PAYDESK_ROOT,
    results: RESULTS,
    databaseUrl: database.url,
    profile: true,
  });
  const merchant = await newMerchant(child, 'profile');
  const invoices = `${child.baseUrl}/v1/merchant/invoices`;
  const create: LoadRequest = {
    url: invoices,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: merchant.auth },
    body: JSON.stringify({ amount: '12.50', order_id: 'order-bench' }),
  };
  const headers = { authorization: merchant.auth };
  const pid = child.process.pid as number;
  const run = (request: LoadRequest, s: number) =>
    measure({ connections: 50, seconds: s, warmupSeconds: 0 }, request, pid);
  // get and list read what a short create run wrote, before the profile starts counting.
  let first = '';
  if (scenario !== 'create') {
    await run(create, 2);
    const page = (await (await fetch(`${invoices}?limit=1`, { headers })).json()) as {
      data: Array<{ id: string }>;
    };
    first = page.data[0]?.id ?? '';
  }
  const request: LoadRequest =
    scenario === 'create'
      ? create
      : { url: scenario === 'get' ? `${invoices}/${first}` : `${invoices}?limit=20`, headers };
  const warm = await run(request, warmup);
  const m = await run(request, seconds);
  const load = loadavg()[0]?.toFixed(1);
  const requests = warm.requests + m.requests;
  await stopAll();
  const file = readdirSync(PROFILES).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${PROFILES}`);
  const profile = readProfile(path.join(PROFILES, file), FIRST_FUNCTION[scenario]);
  const stages = byStage(profile);
  const us = (c: Cost) => `${((c.ms * 1000) / requests).toFixed(1).padStart(7)} µs`;
  const out = [
    `${scenario} under --cpu-prof: ${Math.round(m.rps)} req/s, p99 ${m.p99Ms} ms, ${m.requests} requests measured ` +
      `(${requests} with the warm-up), CPU ${Math.round(m.cpu.serverUs)} µs/request (server) + ` +
      `${Math.round(m.cpu.databaseUs)} µs (PostgreSQL, all processes), load average ${load}`,
    '',
    'by stage (the innermost stage a sample falls in; per request):',
    ...stages.map((c) => `  ${us(c)}  ${c.name}`),
    `  ${us({ name: '', ms: stages.reduce((t, c) => t + c.ms, 0) })}  in all (busy time from the first ${scenario} on)`,
    '',
    'top functions by self time (per request):',
    ...profile.self.slice(0, 25).map((c) => `  ${us(c)}  ${c.name}`),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

process.on('exit', killAllNow);
try {
  await main();
} catch (err) {
  process.stderr.write(`profile failed: ${(err as Error)?.stack ?? err}\n`);
  process.exitCode = 1;
} finally {
  await stopAll();
  await database.release(!process.env.BENCH_KEEP_DB).catch(() => {});
}
