import type { RefundEventType } from '../events/catalogue.js';
import type { RefundRow, RefundStatus } from './refund.table.js';

/**
 * The refund state machine of contract §18 and §22, as one pure function: (state, action, now) →
 * (new state, events, whether its amount is released). No I/O and no clock of its own, so every row
 * of the table is a unit test. change.ts is the only caller that persists its result.
 *
 *   awaiting_address ──claim──▶ ready ──paid──▶ sent ──buried──▶ confirmed
 *          │                      ▲  │            │
 *          └──cancel──▶ canceled ◀┘  └──(final)───┼──────────────▶ confirmed
 *                                 ▲── dropped ────┘   (a reorganisation took its transfer away)
 *
 * Only a refund awaiting its address or ready may be canceled: once its transfer is seen, the money
 * is on its way and a cancel would let the same amount be refunded twice (rule `not_cancelable`).
 */

/** The columns of a refund the lifecycle reads and writes: all that change.ts ever saves. */
export const STATE_COLUMNS = [
  'status',
  'claim_token_hash',
  'network',
  'token',
  'token_amount',
  'address',
  'after_block',
  'ready_at',
  'tx_hash',
  'block_number',
  'confirmed_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof RefundRow>;

export type RefundState = Pick<RefundRow, (typeof STATE_COLUMNS)[number]>;

/** The lifecycle's part of a row (which may carry more, such as its invoice's rate). */
export const stateOf = (row: RefundState): RefundState =>
  Object.fromEntries(STATE_COLUMNS.map((c) => [c, row[c]])) as RefundState;

export type RefundAction =
  /** The payer chose a method and gave an address (the claim page). */
  | {
      kind: 'claim';
      network: string;
      token: string;
      tokenAmount: string;
      address: string;
      afterBlock: string | null;
    }
  /** A new claim link replaces the old one (the merchant API's claim-link, a create's replay). */
  | { kind: 'relink'; claimTokenHash: string }
  | { kind: 'cancel' }
  /** A transfer that pays it was seen; `final` when its block is already deep enough. */
  | { kind: 'paid'; txHash: string; blockNumber: bigint; final: boolean }
  /** Its transfer's block is now deep enough. */
  | { kind: 'buried' }
  /** A reorganisation dropped the block of its transfer: it waits for one again. */
  | { kind: 'dropped' };

export type RefusedRule = 'not_cancelable' | 'not_awaiting_address';

export interface RefundOutcome {
  state: RefundState;
  changed: boolean;
  /** At most one event; `previous` is the status it left. */
  event?: { type: RefundEventType; previous: RefundStatus };
  /** Its amount no longer counts against what was paid (it happens once: only on the way into `canceled`). */
  released: boolean;
  /** The action is refused (the caller asked for something this status does not allow). */
  refused?: RefusedRule;
}

const same = (state: RefundState): RefundOutcome => ({ state, changed: false, released: false });

export function transition(state: RefundState, action: RefundAction, now: Date): RefundOutcome {
  const s = state.status;
  switch (action.kind) {
    case 'claim':
      if (s !== 'awaiting_address') return same(state);
      return moved(state, 'ready', now, {
        network: action.network,
        token: action.token,
        token_amount: action.tokenAmount,
        address: action.address,
        after_block: action.afterBlock,
        ready_at: now,
      });
    case 'relink':
      if (s !== 'awaiting_address') return { ...same(state), refused: 'not_awaiting_address' };
      return {
        state: { ...state, claim_token_hash: action.claimTokenHash, updated_at: now },
        changed: true,
        released: false,
      };
    case 'cancel':
      if (!cancelable(s)) return { ...same(state), refused: 'not_cancelable' };
      return { ...moved(state, 'canceled', now, { claim_token_hash: null }), released: true };
    case 'paid': {
      // Only a ready refund is paid: a canceled one never becomes sent or confirmed (contract §22).
      if (s !== 'ready') return same(state);
      const paid = { tx_hash: action.txHash, block_number: action.blockNumber.toString() };
      if (!action.final) return moved(state, 'sent', now, paid);
      return moved(state, 'confirmed', now, { ...paid, confirmed_at: now });
    }
    case 'buried':
      if (s !== 'sent') return same(state);
      return moved(state, 'confirmed', now, { confirmed_at: now });
    case 'dropped':
      if (s !== 'sent') return same(state);
      return moved(state, 'ready', now, { tx_hash: null, block_number: null }, false);
  }
}

/** A status change, with the event it announces (a return to `ready` after a reorganisation announces none). */
function moved(
  state: RefundState,
  status: RefundStatus,
  now: Date,
  patch: Partial<RefundState>,
  announce = true,
): RefundOutcome {
  const next = { ...state, ...patch, status, updated_at: now };
  const type: RefundEventType | undefined =
    status === 'ready' ? 'refund.ready' : status === 'confirmed' ? 'refund.confirmed' : undefined;
  const event = announce && type ? { type, previous: state.status } : undefined;
  return { state: next, changed: true, released: false, ...(event ? { event } : {}) };
}

/** Whether a merchant may still cancel it: not once its transfer is seen (pages offer Cancel by this). */
export const cancelable = (status: RefundStatus) => status === 'awaiting_address' || status === 'ready';
