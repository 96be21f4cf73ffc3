import { DatabaseTimeoutError } from './bounds.js';

/**
 * Group commit: requests that arrive while a write is in progress wait for it, then go to the
 * database together in the next write, one statement and one commit for all of them. No timer ever
 * waits for company (as PostgreSQL's own commit_delay and TigerBeetle's batching do not): a write
 * starts on the next turn of the event loop (setImmediate), after the I/O callbacks already waiting
 * have run, so a lone request on an idle server is written at once, and requests whose bytes had
 * already arrived join it. That one turn is what lets batches form at all on embedded PGlite, whose
 * queries run on this thread and hold it: requests queue in the socket buffers meanwhile, not here.
 *
 * `write` gets a batch and answers each item on its own: one item's failure (a conflict, a
 * constraint) is that item's answer, not its neighbours'. A `write` that throws fails the whole
 * batch; callers that can tell a failure of one row from a failure of the database split the batch
 * themselves (see `writeEachOnFailure`).
 */

export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** The most items one write takes. */
  maxBatch: number;
  /** Writes in progress at once (each on its own connection). */
  maxInFlight: number;
  /**
   * The longest an item may wait in the queue for a write to take it (contract §20). Past it the item
   * is refused with a DatabaseTimeoutError, and never written: its caller answers 503 and may retry.
   * Once taken, an item waits for its write, which the connection's own deadline bounds.
   */
  maxWaitMs?: number;
}

export interface GroupCommit<I, O> {
  submit(item: I): Promise<O>;
  /** How many writes took each batch size, since start: for the operator's metrics. */
  batchSizes(): ReadonlyMap<number, number>;
}

interface Waiting<I, O> {
  item: I;
  /** When the item stops waiting in the queue (performance.now() milliseconds). */
  deadline: number;
  resolve(value: O): void;
  reject(error: unknown): void;
}

export function groupCommit<I, O>(
  write: (batch: readonly I[]) => Promise<ReadonlyArray<Settled<O>>>,
  options: GroupCommitOptions,
): GroupCommit<I, O> {
  const queue: Array<Waiting<I, O>> = [];
  const sizes = new Map<number, number>();
  let inFlight = 0;
  let scheduled = false;
  let expiry: NodeJS.Timeout | undefined;
  const maxWait = options.maxWaitMs ?? Number.POSITIVE_INFINITY;

  // One timer, for the oldest waiting item (the queue is in arrival order, so it is the head): no timer
  // per item on the hot path. If that item has gone into a write meanwhile, the timer refuses nobody
  // and is set again for the new head.
  const watchQueue = () => {
    if (expiry || queue.length === 0 || !Number.isFinite(maxWait)) return;
    const head = queue[0] as Waiting<I, O>;
    expiry = setTimeout(expire, Math.max(0, head.deadline - performance.now()));
    expiry.unref();
  };
  const expire = () => {
    expiry = undefined;
    const now = performance.now();
    let n = 0;
    while (n < queue.length && (queue[n] as Waiting<I, O>).deadline <= now) n++;
    const late = queue.splice(0, n);
    const error = new DatabaseTimeoutError(`no database write took this request within ${maxWait} ms`);
    for (const w of late) w.reject(error);
    watchQueue();
  };

  const flush = () => {
    scheduled = false;
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      inFlight++;
      sizes.set(batch.length, (sizes.get(batch.length) ?? 0) + 1);
      void run(batch).finally(() => {
        inFlight--;
        schedule();
      });
    }
  };
  const schedule = () => {
    if (scheduled || queue.length === 0 || inFlight >= options.maxInFlight) return;
    scheduled = true;
    setImmediate(flush);
  };

  const run = async (batch: Array<Waiting<I, O>>) => {
    try {
      const results = await write(batch.map((w) => w.item));
      batch.forEach((w, i) => {
        const r = results[i];
        if (!r) w.reject(new Error('group commit: the write answered fewer items than it was given'));
        else if (r.ok) w.resolve(r.value);
        else w.reject(r.error);
      });
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  };

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject, deadline: performance.now() + maxWait });
        schedule();
        watchQueue();
      });
    },
    batchSizes: () => sizes,
  };
}

/**
 * For a `write` whose statement fails as a whole when one row breaks a rule: a batch that fails for
 * any reason but `isOutage` (the database unreachable) is written again one item at a time, so the
 * item at fault gets the error and every other item its own answer.
 */
export function writeEachOnFailure<I, O>(
  write: (batch: readonly I[]) => Promise<ReadonlyArray<Settled<O>>>,
  isOutage: (error: unknown) => boolean,
): (batch: readonly I[]) => Promise<ReadonlyArray<Settled<O>>> {
  return async (batch) => {
    try {
      return await write(batch);
    } catch (error) {
      if (batch.length === 1 || isOutage(error)) throw error;
      return Promise.all(
        batch.map(async (item) => {
          try {
            const [one] = await write([item]);
            return one ?? { ok: false as const, error: new Error('group commit: no answer for an item') };
          } catch (e) {
            return { ok: false as const, error: e };
          }
        }),
      );
    }
  };
}
