import { describe, expect, test } from 'vitest';
import { type RefundAction, type RefundState, transition } from './lifecycle.js';
import type { RefundStatus } from './refund.table.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const NOW = new Date('2026-01-02T00:00:00Z');

const state = (status: RefundStatus, extra: Partial<RefundState> = {}): RefundState => ({
  status,
  claim_token_hash: status === 'awaiting_address' ? 'h1' : null,
  network: status === 'awaiting_address' ? null : 'polygon',
  token: status === 'awaiting_address' ? null : 'USDT',
  token_amount: status === 'awaiting_address' ? null : '10',
  address: status === 'awaiting_address' ? null : '0xabc',
  after_block: null,
  ready_at: null,
  tx_hash: status === 'sent' || status === 'confirmed' ? '0xt' : null,
  block_number: status === 'sent' || status === 'confirmed' ? '7' : null,
  confirmed_at: status === 'confirmed' ? T0 : null,
  updated_at: T0,
  ...extra,
});

const claim: RefundAction = {
  kind: 'claim',
  network: 'polygon',
  token: 'USDT',
  tokenAmount: '10',
  address: '0xabc',
  afterBlock: '5',
};
const paid = (final: boolean): RefundAction => ({ kind: 'paid', txHash: '0xt', blockNumber: 9n, final });

/** Every status × action: where it goes, what it announces, and what it refuses (contract §22). */
const TABLE: Array<[RefundStatus, RefundAction, RefundStatus, string | undefined, string | undefined]> = [
  ['awaiting_address', claim, 'ready', 'refund.ready', undefined],
  ['awaiting_address', { kind: 'cancel' }, 'canceled', undefined, undefined],
  ['awaiting_address', { kind: 'relink', claimTokenHash: 'h2' }, 'awaiting_address', undefined, undefined],
  ['awaiting_address', paid(true), 'awaiting_address', undefined, undefined],
  ['ready', claim, 'ready', undefined, undefined],
  ['ready', { kind: 'cancel' }, 'canceled', undefined, undefined],
  ['ready', { kind: 'relink', claimTokenHash: 'h2' }, 'ready', undefined, 'not_awaiting_address'],
  ['ready', paid(false), 'sent', undefined, undefined],
  ['ready', paid(true), 'confirmed', 'refund.confirmed', undefined],
  ['ready', { kind: 'buried' }, 'ready', undefined, undefined],
  ['sent', { kind: 'cancel' }, 'sent', undefined, 'not_cancelable'],
  ['sent', { kind: 'buried' }, 'confirmed', 'refund.confirmed', undefined],
  ['sent', { kind: 'dropped' }, 'ready', undefined, undefined],
  ['sent', paid(true), 'sent', undefined, undefined],
  ['confirmed', { kind: 'cancel' }, 'confirmed', undefined, 'not_cancelable'],
  ['confirmed', { kind: 'dropped' }, 'confirmed', undefined, undefined],
  ['canceled', { kind: 'cancel' }, 'canceled', undefined, 'not_cancelable'],
  ['canceled', paid(true), 'canceled', undefined, undefined],
  ['canceled', { kind: 'buried' }, 'canceled', undefined, undefined],
  ['canceled', claim, 'canceled', undefined, undefined],
  ['canceled', { kind: 'relink', claimTokenHash: 'h2' }, 'canceled', undefined, 'not_awaiting_address'],
];

describe('the refund lifecycle', () => {
  test.each(TABLE)('%s + %o → %s', (from, action, to, event, refused) => {
    const out = transition(state(from), action, NOW);
    expect(out.state.status).toBe(to);
    expect(out.event?.type).toBe(event);
    if (event) expect(out.event?.previous).toBe(from);
    expect(out.refused).toBe(refused);
    // Its amount is released on the way into canceled, and only then.
    expect(out.released).toBe(to === 'canceled' && from !== 'canceled');
    expect(out.changed).toBe(to !== from || action.kind === 'relink' ? !refused : false);
  });

  test('a payment seen records its transfer; a reorganisation forgets it and announces nothing', () => {
    const sent = transition(state('ready'), paid(false), NOW).state;
    expect(sent).toMatchObject({ status: 'sent', tx_hash: '0xt', block_number: '9', confirmed_at: null });
    const back = transition(sent, { kind: 'dropped' }, NOW);
    expect(back.state).toMatchObject({ status: 'ready', tx_hash: null, block_number: null });
    expect(back.event).toBeUndefined();
  });

  test('a cancel makes the claim link stop working; a new link replaces the old one', () => {
    expect(transition(state('awaiting_address'), { kind: 'cancel' }, NOW).state.claim_token_hash).toBeNull();
    const relinked = transition(state('awaiting_address'), { kind: 'relink', claimTokenHash: 'h2' }, NOW);
    expect(relinked.state.claim_token_hash).toBe('h2');
    expect(relinked.changed).toBe(true);
  });

  test('a claim fixes the method, the token amount and the watcher cursor', () => {
    const out = transition(state('awaiting_address'), claim, NOW).state;
    expect(out).toMatchObject({ network: 'polygon', token: 'USDT', token_amount: '10', after_block: '5' });
    expect(out.ready_at).toEqual(NOW);
  });
});
