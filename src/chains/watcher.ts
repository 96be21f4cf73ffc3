import type { FastifyBaseLogger } from 'fastify';
import type { Worker } from '../workers/loop.js';
import type { Leadership } from './leadership.js';
import { RpcError } from './rpc-error.js';
import { type ScanContext, scanStep } from './scan.js';

const STANDBY_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;

export interface WatcherOptions extends ScanContext {
  pollIntervalMs: number;
  leadership: Leadership;
  log: FastifyBaseLogger;
}

/**
 * Follows one network for as long as the process runs. While another instance leads the network this
 * one stands by and checks again every few seconds. RPC and database failures back off exponentially
 * (with jitter, up to a minute) and the step is retried from the stored cursor: a failure never stops
 * the watcher and never loses a block.
 */
export function startChainWatcher(options: WatcherOptions): Worker {
  const { network, leadership, log } = options;
  const name = network.name;
  let stopped = false;
  let wakeUp: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const run = async () => {
    let failures = 0;
    let leading = false;
    while (!stopped) {
      try {
        const nowLeading = await leadership.hold(name);
        if (nowLeading !== leading)
          log.info({ network: name, leading: nowLeading }, 'chain watcher leadership');
        leading = nowLeading;
        if (!leading) {
          await sleep(STANDBY_MS);
          continue;
        }
        const behind = await scanStep(options);
        failures = 0;
        if (!behind) await sleep(options.pollIntervalMs);
      } catch (err) {
        failures++;
        const delay = backoff(failures);
        // RPC errors carry no URL (see RpcError); anything else is ours and logged with its stack.
        const error = err instanceof RpcError ? err.message : err;
        log.warn(
          { err: error, network: name, failures, retryInMs: delay },
          'chain watcher step failed; retrying',
        );
        await sleep(delay);
      }
    }
    await leadership.release(name);
  };

  const running = run();
  return {
    wake() {
      wakeUp?.();
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await running;
    },
  };
}

/** 0.5 s, 1 s, 2 s … up to a minute, each ±25 %, so instances recovering together do not stampede a node. */
export function backoff(failures: number): number {
  const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** Math.min(failures - 1, 10));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}
