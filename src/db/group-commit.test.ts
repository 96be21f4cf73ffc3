import { describe, expect, test } from 'vitest';
import { DatabaseTimeoutError } from './bounds.js';
import { groupCommit, type Settled, writeEachOnFailure } from './group-commit.js';

/** One turn of the event loop: a write starts on the next one. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A write that records its batches and holds each one until the test lets it finish. */
function heldWrite() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const write = async (batch: readonly number[]): Promise<Array<Settled<number>>> => {
    batches.push([...batch]);
    await new Promise<void>((resolve) => releases.push(resolve));
    return batch.map((n) =>
      n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n * 10 },
    );
  };
  const releaseNext = async () => {
    while (releases.length === 0) await new Promise((r) => setImmediate(r));
    releases.shift()?.();
  };
  return { write, batches, releaseNext };
}

describe('group commit', () => {
  test('an item that no write takes within maxWaitMs is refused, and never written', async () => {
    const w = heldWrite();
    const gc = groupCommit(w.write, { maxBatch: 1, maxInFlight: 1, maxWaitMs: 50 });
    const stuck = gc.submit(1); // its write hangs, as on a silent database
    await nextTurn();
    const queued = [gc.submit(2), gc.submit(3)];
    for (const q of queued) await expect(q).rejects.toBeInstanceOf(DatabaseTimeoutError);
    await w.releaseNext();
    expect(await stuck).toBe(10);
    // The refused items are gone from the queue: the next write takes only what came after them.
    const later = gc.submit(4);
    await w.releaseNext();
    expect(await later).toBe(40);
    expect(w.batches).toEqual([[1], [4]]);
  });

  test('a lone item is written on the next turn of the event loop, alone: no timer waits for company', async () => {
    const w = heldWrite();
    const gc = groupCommit(w.write, { maxBatch: 8, maxInFlight: 1 });
    const answer = gc.submit(1);
    await nextTurn();
    expect(w.batches).toEqual([[1]]);
    await w.releaseNext();
    expect(await answer).toBe(10);
  });

  test('items that arrive during a write go together in the next, at most maxBatch at a time', async () => {
    const w = heldWrite();
    const gc = groupCommit(w.write, { maxBatch: 3, maxInFlight: 1 });
    const first = gc.submit(1);
    await nextTurn();
    expect(w.batches).toEqual([[1]]);
    const answers = [first, ...[2, 3, 4, 5, 6].map((n) => gc.submit(n))];
    for (let i = 0; i < 3; i++) await w.releaseNext();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(w.batches).toEqual([[1], [2, 3, 4], [5, 6]]);
    expect([...gc.batchSizes()].sort()).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
  });

  test('with two writes in flight, the second starts while the first runs', async () => {
    const w = heldWrite();
    const gc = groupCommit(w.write, { maxBatch: 8, maxInFlight: 2 });
    const first = gc.submit(1);
    await nextTurn();
    const answers = [first, ...[2, 3].map((n) => gc.submit(n))];
    await nextTurn();
    expect(w.batches).toEqual([[1], [2, 3]]);
    for (let i = 0; i < 2; i++) await w.releaseNext();
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
  });

  test("one item's failure is its own answer; its neighbours succeed", async () => {
    const w = heldWrite();
    const gc = groupCommit(w.write, { maxBatch: 8, maxInFlight: 1 });
    const answers = [1, -2, 3].map((n) => gc.submit(n).then(String, (e: Error) => e.message));
    await w.releaseNext();
    expect(await Promise.all(answers)).toEqual(['10', 'bad -2', '30']);
  });

  test('a write that throws fails every item of its batch, and only those', async () => {
    let calls = 0;
    const gc = groupCommit(
      async (batch: readonly number[]) => {
        calls++;
        if (calls === 2) throw new Error('connection lost');
        return batch.map((n) => ({ ok: true as const, value: n }));
      },
      { maxBatch: 8, maxInFlight: 1 },
    );
    const first = gc.submit(1).then(String);
    await nextTurn();
    const answers = [first, ...[2, 3].map((n) => gc.submit(n).then(String, (e: Error) => e.message))];
    expect(await Promise.all(answers)).toEqual(['1', 'connection lost', 'connection lost']);
    expect(await gc.submit(4)).toBe(4);
  });
});

describe('writeEachOnFailure', () => {
  const poisoned = async (batch: readonly number[]) => {
    if (batch.includes(13)) throw new Error('constraint violated by 13');
    return batch.map((n) => ({ ok: true as const, value: n }));
  };
  const outage = (e: unknown) => (e as Error).message.startsWith('outage');

  test('a batch that fails on one row is written again item by item: only that item fails', async () => {
    const results = await writeEachOnFailure(poisoned, outage)([12, 13, 14]);
    expect(results.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual([
      12,
      'constraint violated by 13',
      14,
    ]);
  });

  test('an outage is not retried item by item: the batch fails as one', async () => {
    let calls = 0;
    const write = writeEachOnFailure(async () => {
      calls++;
      throw new Error('outage: ECONNREFUSED');
    }, outage);
    await expect(write([1, 2, 3])).rejects.toThrow('outage');
    expect(calls).toBe(1);
  });
});
