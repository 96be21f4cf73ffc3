import type { FastifyBaseLogger } from 'fastify';

export interface Worker {
  /** Wakes the loop now instead of at its next interval (a NOTIFY arrived). */
  wake(): void;
  /** Resolves once the tick in progress, if any, has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `tick` again and again: at once while it reports more work, otherwise after `intervalMs` or
 * when woken. Errors are logged and retried at the next interval; the loop never dies of them.
 * All state lives in the database, so a restart picks up exactly where this left off.
 */
export function pollLoop(
  name: string,
  intervalMs: number,
  tick: () => Promise<boolean>,
  log: FastifyBaseLogger,
): Worker {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let wakeRequested = false;

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  };

  const run = () => {
    if (stopped || running) {
      wakeRequested = true;
      return;
    }
    wakeRequested = false;
    running = (async () => {
      let more = false;
      try {
        more = await tick();
      } catch (err) {
        log.error({ err, worker: name }, 'worker tick failed');
      }
      running = undefined;
      // setTimeout (not a tight await loop) so that timers and I/O get their turn between batches:
      // PGlite in particular starves timers under back-to-back queries.
      schedule(more || wakeRequested ? 0 : intervalMs);
    })();
  };

  schedule(0);
  return {
    wake() {
      if (!stopped) schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
