import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDatabase, withClient } from './database.js';
import { type LoadRequest, measure } from './load.js';
import { killAllNow, stopAll } from './processes.js';
import { byStage, type Cost, readProfile } from './profile-report.js';
import { newMerchant, startPaydesk } from './servers.js';

/**
 * `npm run bench:profile`: where the time of a create goes. Paydesk's production build runs under
 * `node --cpu-prof` on a fresh `paydesk_bench` database, 50 connections create sandbox invoices for
 * BENCH_SECONDS (after a warm-up), and the profile is read back: the process's CPU per create, by
 * stage of the request (HTTP, auth, validation, pricing, insert, serialisation…) and by function.
 * Only creates run while the profile records, so every sample but the start-up's is a create's.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = path.join(ROOT, 'bench', 'results');
const PROFILES = path.join(RESULTS, 'profiles');
const seconds = Number(process.env.BENCH_SECONDS || 10);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS || 3);
const database = benchDatabase(process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  rmSync(PROFILES, { recursive: true, force: true });
  await database.recreate();
  const { child } = await startPaydesk({
    root: ROOT,
    results: RESULTS,
    databaseUrl: database.url,
    profile: true,
  });
  const merchant = await newMerchant(child, 'profile');
  const request: LoadRequest = {
    url: `${child.baseUrl}/v1/merchant/invoices`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: merchant.auth },
    body: JSON.stringify({ amount: '12.50', order_id: 'order-bench' }),
  };
  const m = await measure(
    { connections: 50, seconds, warmupSeconds: warmup },
    request,
    child.process.pid as number,
  );
  const load = loadavg()[0]?.toFixed(1);
  // Every create of the warm-up and of the measured run, exactly (the profile covers both).
  const creates = await withClient(database.url, async (c) =>
    Number((await c.query('select count(*) from invoices')).rows[0].count),
  );
  await stopAll();
  const file = readdirSync(PROFILES).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile in ${PROFILES}`);
  const profile = readProfile(path.join(PROFILES, file), 'createInvoice');
  const stages = byStage(profile);
  const us = (c: Cost) => `${((c.ms * 1000) / creates).toFixed(1).padStart(7)} µs`;
  const out = [
    `create under --cpu-prof: ${Math.round(m.rps)} req/s, p99 ${m.p99Ms} ms, ${m.requests} creates measured ` +
      `(${creates} with the warm-up), CPU ${Math.round(m.cpu.serverUs)} µs/create (server) + ` +
      `${Math.round(m.cpu.databaseUs)} µs (PostgreSQL, all processes), load average ${load}`,
    '',
    'by stage (the innermost stage a sample falls in; per create):',
    ...stages.map((c) => `  ${us(c)}  ${c.name}`),
    `  ${us({ name: '', ms: stages.reduce((t, c) => t + c.ms, 0) })}  in all (busy time from the first create on)`,
    '',
    'top functions by self time (per create):',
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
