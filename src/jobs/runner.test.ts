import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { freshDatabase, onPostgres } from '../../test/database.js';
import { eventually } from '../../test/webhooks.js';
import { DEFAULT_BOUNDS } from '../db/bounds.js';
import type { DatabaseHandle } from '../db/database.js';
import type { Job } from './job.js';
import { advisoryLeadership, soleLeader } from './leadership.js';
import { type RunningJobs, startJobs } from './runner.js';

const HOUR = 3_600_000;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function capturedLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

async function database(): Promise<{ handle: DatabaseHandle; url: string }> {
  const fresh = await freshDatabase();
  const handle = await fresh.open();
  cleanups.push(async () => {
    await handle.close();
    await fresh.drop();
  });
  return { handle, url: fresh.url };
}

/** A job that counts its rounds and does what `round` says on each (1-based). */
function counting(
  name: string,
  round: (n: number) => Promise<boolean> | boolean = () => false,
  options: Pick<Job, 'wakeOn' | 'exclusive'> = {},
) {
  const job: Job & { runs: number; drained: boolean } = {
    name,
    ...options,
    intervalMs: HOUR,
    runs: 0,
    drained: false,
    async run(): Promise<boolean> {
      job.runs++;
      return round(job.runs);
    },
    async drain() {
      job.drained = true;
    },
  };
  return job;
}

async function start(
  jobs: Job[],
  handle: DatabaseHandle,
  extra: Partial<Parameters<typeof startJobs>[1]> = {},
) {
  const { log, lines } = capturedLog();
  const running = await startJobs(jobs, {
    notifier: handle.notifier,
    leadership: soleLeader,
    log,
    backoff: () => 1,
    ...extra,
  });
  cleanups.push(() => running.stop());
  return { running, lines };
}

describe('the job runner', () => {
  test('runs a job at once on start, again at once while it says more is waiting, then waits', async () => {
    const { handle } = await database();
    const job = counting('batches', (n) => n < 4);
    await start([job], handle);
    await eventually(async () => job.runs === 4);
  });

  test('a wake-up, by call or by NOTIFY from the database, runs an idle job at once', async () => {
    const { handle } = await database();
    const job = counting('woken', undefined, { wakeOn: 'paydesk_test_jobs' });
    const { running } = await start([job], handle);
    await eventually(async () => job.runs === 1);
    running.wake('woken');
    await eventually(async () => job.runs === 2);
    await sql`select pg_notify('paydesk_test_jobs', '')`.execute(handle.db);
    await eventually(async () => job.runs === 3);
  });

  test('a failed round is logged and retried after the backoff; the job goes on', async () => {
    const { handle } = await database();
    const job = counting('flaky', (n) => {
      if (n <= 2) throw new Error(`round ${n} failed`);
      return false;
    });
    const { lines } = await start([job], handle);
    await eventually(async () => job.runs === 3);
    const warnings = lines.filter((l) => l.msg === 'job round failed; retrying');
    expect(warnings.map((w) => [w.job, w.failures])).toEqual([
      ['flaky', 1],
      ['flaky', 2],
    ]);
  });

  test('stop lets the round in progress finish, then drains the job, and runs nothing after', async () => {
    const { handle } = await database();
    let finish = () => {};
    const inProgress = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const job = counting('slow', async () => {
      await inProgress;
      return true; // would run again at once, were it not stopping
    });
    const { running } = await start([job], handle);
    await eventually(async () => job.runs === 1);
    let stopped = false;
    const stopping = running.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(job.drained).toBe(true);
    expect(job.runs).toBe(1);
  });
});

describe.skipIf(!onPostgres)('an exclusive job on two instances sharing PostgreSQL', () => {
  test('one instance runs it while the other stands by, and the standby takes over when the leader stops', async () => {
    const { handle, url } = await database();
    const second = await freshHandleOn(url);
    const jobs = [0, 1].map(() => counting('exclusive', undefined, { exclusive: true }));
    const instances: RunningJobs[] = [];
    for (const [i, h] of [handle, second].entries()) {
      const { running } = await start([jobs[i] as Job], h, {
        leadership: advisoryLeadership(url, DEFAULT_BOUNDS),
        standbyMs: 20,
      });
      instances.push(running);
    }
    await eventually(async () => (jobs[0]?.runs ?? 0) + (jobs[1]?.runs ?? 0) >= 1);
    const [leader, standby] = (jobs[0]?.runs ?? 0) > 0 ? [0, 1] : [1, 0];
    for (const n of [2, 3]) {
      for (const instance of instances) instance.wake('exclusive');
      await eventually(async () => (jobs[leader]?.runs ?? 0) >= n);
    }
    expect(jobs[standby]?.runs).toBe(0);
    await instances[leader]?.stop();
    await eventually(async () => (jobs[standby]?.runs ?? 0) >= 1);
  });
});

async function freshHandleOn(url: string): Promise<DatabaseHandle> {
  const { openDatabase } = await import('../db/database.js');
  const handle = await openDatabase(url);
  cleanups.push(() => handle.close());
  return handle;
}
