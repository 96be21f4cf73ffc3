import { describe, expect, test } from 'vitest';
import { type CollectionAction, type CollectionState, transition } from './lifecycle.js';

/** The collection state machine, row by row (contract §16, §22): pure, no database, no chain. */

const T0 = new Date('2026-11-27T12:00:00Z');
const now = new Date('2026-11-27T12:05:00Z');
const queued: CollectionState = {
  phase: 'queued',
  nonce: null,
  signer: null,
  tx_hash: null,
  attempts: 0,
  signed_block: null,
  sent_at: null,
  gas_used: null,
  block_number: null,
  block_hash: null,
  last_error: null,
  fee_needed: null,
  fee_cap: null,
  confirmed_at: null,
  updated_at: T0,
};
const sign = (seen: number, hash: string, nonce = 7, signer = '0xA'): CollectionAction => ({
  kind: 'signed',
  seen,
  hash,
  nonce,
  signer,
  head: 100n,
});
const signed = transition(queued, sign(0, '0x1'), now).state;
const block = { hash: '0x1', blockNumber: 101n, blockHash: '0xb1' };
const mined = transition(signed, { kind: 'mined', seen: 1, ...block }, now).state;

describe('a collection', () => {
  test('is signed once, then replaced with the same nonce and signer only', () => {
    expect(signed).toMatchObject({
      phase: 'signed',
      nonce: '7',
      tx_hash: '0x1',
      attempts: 1,
      signed_block: '100',
    });
    const replaced = transition(signed, sign(1, '0x2'), now);
    expect(replaced.state).toMatchObject({ phase: 'signed', nonce: '7', tx_hash: '0x2', attempts: 2 });
    expect(transition(signed, sign(1, '0x3', 8), now).changed).toBe(false);
    expect(transition(signed, sign(1, '0x3', 7, '0xB'), now).changed).toBe(false);
    expect(transition(mined, sign(1, '0x3'), now).changed).toBe(false);
  });

  test('decided from an older count of its transactions changes nothing', () => {
    const replaced = transition(signed, sign(1, '0x2'), now).state;
    for (const action of [
      sign(1, '0x3'),
      { kind: 'lost', seen: 1 },
      { kind: 'final', seen: 1, success: true, moved: true, gasUsed: 1n, ...block },
    ] satisfies CollectionAction[]) {
      expect(transition(replaced, action, now).changed).toBe(false);
    }
  });

  test('mined by any of its transactions, then final: confirmed, or failed giving its deposits back', () => {
    const final = (success: boolean, moved: boolean) =>
      transition(mined, { kind: 'final', seen: 1, success, moved, gasUsed: 50_000n, ...block }, now);
    expect(final(true, true)).toMatchObject({ event: 'collection.confirmed', releaseAll: false });
    expect(final(true, true).state).toMatchObject({
      phase: 'confirmed',
      confirmed_at: now,
      gas_used: '50000',
    });
    expect(final(false, false)).toMatchObject({ event: 'collection.failed', releaseAll: true });
    expect(final(true, false).state.phase).toBe('failed');
    const confirmed = final(true, true).state;
    expect(transition(confirmed, { kind: 'lost', seen: 1 }, now).changed).toBe(false);
  });

  test('reorganised away goes back to signed; lost to another transaction fails', () => {
    expect(transition(mined, { kind: 'unmined', seen: 1 }, now).state).toMatchObject({
      phase: 'signed',
      block_hash: null,
    });
    expect(transition(signed, { kind: 'lost', seen: 1 }, now)).toMatchObject({
      event: 'collection.failed',
      releaseAll: true,
    });
    expect(transition(mined, { kind: 'lost', seen: 1 }, now).changed).toBe(false);
  });

  test('waits with a reason, at the cap with the fee needed and the cap; a send clears it', () => {
    const atCap = transition(signed, { kind: 'waiting', reason: 'fee_cap', feeNeeded: 9n, feeCap: 5n }, now);
    expect(atCap.state).toMatchObject({
      last_error: 'fee_cap',
      fee_needed: '9',
      fee_cap: '5',
      phase: 'signed',
    });
    const again = transition(
      atCap.state,
      { kind: 'waiting', reason: 'fee_cap', feeNeeded: 9n, feeCap: 5n },
      now,
    );
    expect(again.changed).toBe(false);
    expect(transition(atCap.state, { kind: 'sent', seen: 1 }, now).state).toMatchObject({
      last_error: null,
      fee_needed: null,
      sent_at: now,
    });
    expect(transition(queued, { kind: 'empty' }, now).state.phase).toBe('failed');
  });
});
