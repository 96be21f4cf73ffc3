import type { FastifyBaseLogger } from 'fastify';
import type { Notifier } from '../db/notifier.js';
import { backoff } from './backoff.js';
import type { Job, JobContext } from './job.js';
import type { Leadership } from './leadership.js';

/** How often an instance that does not lead an exclusive job checks whether the leader is gone. */
export const STANDBY_MS = 5_000;

export interface RunningJobs {
  /** Runs a job now rather than at its next interval. */
  wake(name: string): void;
  /** Lets every round in progress end, drains the jobs, and releases their locks. */
  stop(): Promise<void>;
}

export interface RunnerDeps {
  notifier: Notifier;
  leadership: Leadership;
  log: FastifyBaseLogger;
  /** The pause after `failures` failed rounds in a row (a parameter, so tests need not wait it out). */
  backoff?: (failures: number) => number;
  /** How often a standby checks whether the leader of an exclusive job is gone. */
  standbyMs?: number;
}

/**
 * Runs each job in a loop of its own: a round, then a pause (none when the job says more is waiting,
 * its interval otherwise, a growing backoff after a failure) that a wake-up cuts short. A failure is
 * logged and retried; it never stops the loop. Listening comes first, so that a notification sent
 * while a round runs is not lost: it makes the next pause zero.
 */
export async function startJobs(jobs: readonly Job[], deps: RunnerDeps): Promise<RunningJobs> {
  const stopping = new AbortController();
  const loops = new Map(jobs.map((job) => [job.name, jobLoop(job, deps, stopping.signal)]));
  for (const job of jobs) {
    const loop = loops.get(job.name);
    if (job.wakeOn && loop) await deps.notifier.listen(job.wakeOn, loop.notified, loop.wake);
  }
  const running = [...loops.values()].map((loop) => loop.start());
  return {
    wake(name) {
      loops.get(name)?.wake();
    },
    async stop() {
      stopping.abort();
      for (const loop of loops.values()) loop.wake();
      await Promise.all(running);
      await Promise.all(jobs.map((job) => job.drain?.()));
      await deps.leadership.close();
    },
  };
}

function jobLoop(job: Job, deps: RunnerDeps, stopping: AbortSignal) {
  const log = deps.log.child({ job: job.name });
  let wakeRequested = false;
  let endPause: (() => void) | undefined;

  const wake = () => {
    wakeRequested = true;
    endPause?.();
  };
  // Notifications wake the job after its wakeDelayMs, one timer for all that arrive meanwhile.
  let wakeScheduled = false;
  const notified = () => {
    const delay = job.wakeDelayMs ?? 0;
    if (delay <= 0 || stopping.aborted) return wake();
    if (wakeScheduled) return;
    wakeScheduled = true;
    setTimeout(() => {
      wakeScheduled = false;
      wake();
    }, delay).unref();
  };
  const context: JobContext = { signal: stopping, wake };

  // Always a timer, even of 0 ms, between rounds: I/O and other timers get their turn (PGlite, which
  // runs on this thread, would otherwise starve them under back-to-back rounds).
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, wakeRequested || stopping.aborted ? 0 : ms);
      function done() {
        clearTimeout(timer);
        endPause = undefined;
        resolve();
      }
      endPause = done;
    });

  // One round: the pause that should follow it.
  const round = async (state: { failures: number; leading: boolean }): Promise<number> => {
    wakeRequested = false;
    try {
      if (job.exclusive) {
        const leading = await deps.leadership.hold(job.name);
        if (leading !== state.leading) log.info({ leading }, 'job leadership');
        state.leading = leading;
        if (!leading) return deps.standbyMs ?? STANDBY_MS;
      }
      const more = await job.run(context);
      state.failures = 0;
      return more ? 0 : job.intervalMs;
    } catch (err) {
      state.failures++;
      const delay = (deps.backoff ?? backoff)(state.failures);
      log.warn({ err, failures: state.failures, retry_in_ms: delay }, 'job round failed; retrying');
      return delay;
    }
  };

  const start = async () => {
    const state = { failures: 0, leading: false };
    while (!stopping.aborted) {
      await pause(await round(state));
    }
    if (job.exclusive && state.leading) await deps.leadership.release(job.name);
  };

  return { start, wake, notified };
}
