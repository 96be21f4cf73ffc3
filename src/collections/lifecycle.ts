import type { CollectionPhase, CollectionRow } from './collection.table.js';

/**
 * The collection state machine of contract §16 and §22, as one pure function: (state, action, now)
 * → (new state, event, what to give back). No I/O and no clock of its own; change.ts is the only
 * caller that persists its result, under the row's lock and the collector's lease.
 *
 *   queued ──signed──▶ signed ──mined──▶ mined ──final──▶ confirmed | failed
 *     │                 │  ▲ └─signed (a replacement: same nonce, higher fees)
 *     └─empty─▶ failed  │  └──── unmined (its block reorganised away) ──┘
 *                       └─lost (another transaction took the nonce) ─▶ failed
 *
 * Every action about a signed collection carries `seen`: how many transactions the caller knew of
 * when it decided. A caller that decided from an older count (another instance replaced it since)
 * changes nothing: it decides again next round, from the row as it stands.
 */

export const STATE_COLUMNS = [
  'phase',
  'nonce',
  'signer',
  'tx_hash',
  'attempts',
  'signed_block',
  'sent_at',
  'gas_used',
  'block_number',
  'block_hash',
  'last_error',
  'fee_needed',
  'fee_cap',
  'confirmed_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof CollectionRow>;

export type CollectionState = Pick<CollectionRow, (typeof STATE_COLUMNS)[number]>;

export const stateOf = (row: CollectionState): CollectionState =>
  Object.fromEntries(STATE_COLUMNS.map((c) => [c, row[c]])) as CollectionState;

/** Why a collection waits, shown to the owner: a closed set. */
export type WaitReason = 'no_key' | 'no_gas' | 'rejected' | 'unreachable' | 'fee_cap';

export interface Block {
  hash: string;
  blockNumber: bigint;
  blockHash: string;
}

export type CollectionAction =
  | { kind: 'signed'; seen: number; hash: string; nonce: number; signer: string; head: bigint }
  | { kind: 'sent'; seen: number }
  | { kind: 'waiting'; reason: WaitReason; feeNeeded?: bigint; feeCap?: bigint }
  | ({ kind: 'mined'; seen: number } & Block)
  | { kind: 'unmined'; seen: number }
  | ({ kind: 'final'; seen: number; success: boolean; moved: boolean; gasUsed: bigint } & Block)
  | { kind: 'lost'; seen: number }
  | { kind: 'empty' };

export type CollectionEventType = 'collection.confirmed' | 'collection.failed';

export interface CollectionOutcome {
  state: CollectionState;
  changed: boolean;
  event?: CollectionEventType;
  /** Every deposit still in it goes back to the collectable ones (it failed). */
  releaseAll?: boolean;
}

const OPEN: readonly CollectionPhase[] = ['queued', 'signed', 'mined'];
export const isOpen = (phase: CollectionPhase) => OPEN.includes(phase);

const same = (state: CollectionState): CollectionOutcome => ({ state, changed: false });

export function transition(state: CollectionState, action: CollectionAction, now: Date): CollectionOutcome {
  if (!isOpen(state.phase)) return same(state);
  if ('seen' in action && action.seen !== state.attempts) return same(state);
  switch (action.kind) {
    case 'signed':
      return signed(state, action, now);
    case 'sent':
      if (state.phase !== 'signed' || (state.sent_at !== null && state.last_error === null))
        return same(state);
      return change(state, now, { sent_at: state.sent_at ?? now, ...noWait });
    case 'waiting':
      return waiting(state, action, now);
    case 'mined':
      if (state.phase === 'queued') return same(state);
      if (state.phase === 'mined' && state.block_hash === action.blockHash && state.tx_hash === action.hash) {
        return same(state);
      }
      return change(state, now, { phase: 'mined', ...blockOf(action), ...noWait });
    case 'unmined':
      if (state.phase !== 'mined') return same(state);
      return change(state, now, { phase: 'signed', block_number: null, block_hash: null });
    case 'final':
      return final(state, action, now);
    case 'lost':
      if (state.phase !== 'signed') return same(state);
      return ended(state, now, 'failed', {});
    case 'empty':
      if (state.phase !== 'queued') return same(state);
      return ended(state, now, 'failed', {});
  }
}

const noWait = { last_error: null, fee_needed: null, fee_cap: null } as const;

/** The first transaction, or a replacement with the same nonce and signer (never of a mined one). */
function signed(
  state: CollectionState,
  a: Extract<CollectionAction, { kind: 'signed' }>,
  now: Date,
): CollectionOutcome {
  if (state.phase === 'mined') return same(state);
  if (state.phase === 'signed' && (state.nonce !== String(a.nonce) || state.signer !== a.signer)) {
    return same(state);
  }
  return change(state, now, {
    phase: 'signed',
    nonce: String(a.nonce),
    signer: a.signer,
    tx_hash: a.hash,
    attempts: state.attempts + 1,
    signed_block: String(a.head),
    sent_at: null,
    ...noWait,
  });
}

function waiting(
  state: CollectionState,
  a: Extract<CollectionAction, { kind: 'waiting' }>,
  now: Date,
): CollectionOutcome {
  const atCap = a.reason === 'fee_cap';
  const fees = {
    fee_needed: atCap ? String(a.feeNeeded ?? 0n) : null,
    fee_cap: atCap ? String(a.feeCap ?? 0n) : null,
  };
  if (
    state.last_error === a.reason &&
    state.fee_needed === fees.fee_needed &&
    state.fee_cap === fees.fee_cap
  ) {
    return same(state);
  }
  return change(state, now, { last_error: a.reason, ...fees });
}

/** Deep enough: confirmed when it moved anything, failed when it reverted or every sweep failed. */
function final(
  state: CollectionState,
  a: Extract<CollectionAction, { kind: 'final' }>,
  now: Date,
): CollectionOutcome {
  if (state.phase === 'queued') return same(state);
  const mined = { ...blockOf(a), gas_used: String(a.gasUsed) };
  return ended(state, now, a.success && a.moved ? 'confirmed' : 'failed', mined);
}

const blockOf = (b: Block) => ({
  tx_hash: b.hash,
  block_number: String(b.blockNumber),
  block_hash: b.blockHash,
});

function ended(
  state: CollectionState,
  now: Date,
  phase: 'confirmed' | 'failed',
  patch: Partial<CollectionState>,
): CollectionOutcome {
  const next = change(state, now, {
    ...patch,
    phase,
    confirmed_at: phase === 'confirmed' ? now : null,
    ...noWait,
  });
  return { ...next, event: `collection.${phase}`, releaseAll: phase === 'failed' };
}

function change(state: CollectionState, now: Date, patch: Partial<CollectionState>): CollectionOutcome {
  return { state: { ...state, ...patch, updated_at: now }, changed: true };
}
