/**
 * The failure drill of issue 20, as an operator would run it: two Paydesk processes on one PostgreSQL
 * database, creates under load, and each fault of contract §20 in turn (test/fault-drill.ts). Prints,
 * for each fault: processes that exited, the answers to creates, the longest create, what /v1/health
 * said meanwhile, and the time from the database being reachable again to the first 201 on both.
 *
 *   npx tsx bench/faults.ts                       # this checkout, with the default bounds
 *   FAULTS_MAIN=/path/to/old/src/main.ts npx tsx bench/faults.ts   # another checkout (before/after)
 *
 * Needs root (it runs a PostgreSQL server of its own, to stop it) or falls back to BENCH_DATABASE_URL
 * (without the immediate-stop fault). Each fault is drilled on two new processes, so that what one
 * fault left behind (an exited or a stuck instance) does not show in the next.
 */
import { drill, FAULTS, type FaultRig, startFaultRig } from '../test/fault-drill.js';
import { privatePostgresAvailable } from '../test/postgres-server.js';
import { killAll, removeTempDirs } from '../test/process.js';

const PATIENCE_MS = Number(process.env.FAULTS_PATIENCE_MS ?? 30_000);

async function main() {
  let rig: FaultRig | undefined;
  try {
    rig = await startFaultRig({
      main: process.env.FAULTS_MAIN,
      fallbackUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    });
    const rows: string[][] = [];
    for (const fault of FAULTS) {
      if (fault.needsPrivateServer && !privatePostgresAvailable) continue;
      rig.proxy.restore();
      await rig.replaceAll();
      const live = [...rig.instances];
      const current = rig;
      const report = await drill({
        name: fault.name,
        instances: live,
        secret: rig.secret,
        patienceMs: PATIENCE_MS,
        inject: () => fault.inject(current),
        ...(fault.restore ? { restore: () => fault.restore?.(current) } : {}),
      });
      rows.push([
        fault.name,
        `${report.exited} of ${live.length}`,
        Object.entries(report.statuses)
          .map(([s, n]) => `${s === '0' ? 'no answer' : s}×${n}`)
          .join(' '),
        `${report.longestMs} ms`,
        Object.entries(report.health)
          .map(([s, n]) => `${s === '0' ? 'no answer' : s}×${n}`)
          .join(' ') || '—',
        `${report.longestHealthMs} ms`,
        report.recoveryMs === undefined ? 'never' : `${report.recoveryMs} ms`,
      ]);
    }
    const head = [
      'fault',
      'exited',
      'creates answered',
      'longest create',
      'health meanwhile',
      'longest health',
      'back to 201',
    ];
    console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } finally {
    await rig?.close().catch(() => {});
    await killAll();
    await removeTempDirs();
  }
}

await main();
