import { describe, expect, test } from 'vitest';
import { money as toUnits } from '../money/money.js';
import {
  type InvoiceState,
  LATE_PAYMENT_WINDOW_MS,
  type Observation,
  outstanding,
  schedule,
  stateAt,
  transition,
} from './lifecycle.js';

const T0 = new Date('2026-11-21T10:00:00.000Z');
const EXPIRES = new Date(T0.getTime() + 3600_000);
const at = (ms: number) => new Date(T0.getTime() + ms);
const afterExpiry = (ms: number) => new Date(EXPIRES.getTime() + ms);

function invoice(overrides: Partial<InvoiceState> = {}): InvoiceState {
  return {
    status: 'pending',
    amount: toUnits('10.00'),
    expiresAt: EXPIRES,
    paidAt: null,
    txHash: null,
    paidLate: false,
    failureReason: null,
    toleranceBasisPoints: 0,
    dustBasisPoints: 100,
    payments: [],
    ...overrides,
  };
}

const pay = (amount: string, confirmed = true, txHash = `0x${amount}`) =>
  ({
    kind: 'payment',
    network: 'sandbox',
    currency: 'USDT',
    txHash,
    amount: toUnits(amount),
    confirmed,
  }) satisfies Observation;

/** Applies observations in order, each at its own time; returns the final outcome and every event. */
function run(state: InvoiceState, steps: Array<[Observation, Date]>) {
  let s = state;
  const events: string[] = [];
  for (const [o, now] of steps) {
    const out = transition(s, o, now);
    s = out.state;
    events.push(...out.emitted.map((e) => `${e.previousStatus}→${e.type}`));
  }
  return { state: s, events };
}

describe('contract §9, row by row', () => {
  test('pending + payment seen, not confirmed → pending, tx_hash set, payment_detected', () => {
    const { state, events } = run(invoice(), [[pay('10.00', false, '0xa'), at(1000)]]);
    expect(state.status).toBe('pending');
    expect(state.txHash).toBe('0xa');
    expect(events).toEqual(['pending→invoice.payment_detected']);
  });

  test('pending + confirmed total ≥ amount before expiry → paid, paid_at and tx_hash set', () => {
    const { state, events } = run(invoice(), [[pay('10.00', true, '0xa'), at(1000)]]);
    expect(state).toMatchObject({ status: 'paid', txHash: '0xa', paidLate: false, failureReason: null });
    expect(state.paidAt).toEqual(at(1000));
    expect(events).toEqual(['pending→invoice.payment_detected', 'pending→invoice.paid']);
  });

  test('over-payment stays paid', () => {
    const { state } = run(invoice(), [[pay('25.00'), at(1000)]]);
    expect(state.status).toBe('paid');
  });

  test('partial payments add up to paid', () => {
    const { state, events } = run(invoice(), [
      [pay('4.00', true, '0x1'), at(1000)],
      [pay('6.00', true, '0x2'), at(2000)],
    ]);
    expect(state.status).toBe('paid');
    expect(state.txHash).toBe('0x2');
    expect(events.filter((e) => e.endsWith('paid'))).toEqual(['pending→invoice.paid']);
  });

  test('a payment seen before expiry and confirmed after it → paid on time ("or first seen before it")', () => {
    const { state, events } = run(invoice(), [
      [pay('10.00', false, '0xa'), at(3599_000)],
      [{ kind: 'tick' }, afterExpiry(60_000)],
      [pay('10.00', true, '0xa'), afterExpiry(120_000)],
    ]);
    expect(state).toMatchObject({ status: 'paid', paidLate: false });
    expect(events).toEqual(['pending→invoice.payment_detected', 'pending→invoice.paid']);
  });

  test('pending + expiry, nothing paid → expired', () => {
    const { state, events } = run(invoice(), [[{ kind: 'tick' }, afterExpiry(1)]]);
    expect(state.status).toBe('expired');
    expect(events).toEqual(['pending→invoice.expired']);
  });

  test('pending + expiry, 0 < paid < amount → failed underpaid', () => {
    const { state, events } = run(invoice(), [
      [pay('3.00'), at(1000)],
      [{ kind: 'tick' }, afterExpiry(1)],
    ]);
    expect(state).toMatchObject({ status: 'failed', failureReason: 'underpaid' });
    expect(events.at(-1)).toBe('pending→invoice.failed');
  });

  test('expired + full amount confirmed within 24 h → paid, paid_late', () => {
    const { state, events } = run(invoice(), [
      [{ kind: 'tick' }, afterExpiry(1)],
      [pay('10.00'), afterExpiry(LATE_PAYMENT_WINDOW_MS - 1)],
    ]);
    expect(state).toMatchObject({ status: 'paid', paidLate: true });
    expect(events).toEqual([
      'pending→invoice.expired',
      'expired→invoice.payment_detected',
      'expired→invoice.paid',
    ]);
  });

  test('expired + partial amount confirmed within 24 h → failed underpaid', () => {
    const { state } = run(invoice(), [
      [{ kind: 'tick' }, afterExpiry(1)],
      [pay('5.00'), afterExpiry(1000)],
    ]);
    expect(state).toMatchObject({ status: 'failed', failureReason: 'underpaid' });
  });

  test('expired + payment after the 24 h window → stays expired (the payment is recorded)', () => {
    const { state } = run(invoice(), [
      [{ kind: 'tick' }, afterExpiry(1)],
      [pay('10.00'), afterExpiry(LATE_PAYMENT_WINDOW_MS + 1)],
    ]);
    expect(state.status).toBe('expired');
    expect(state.payments).toHaveLength(1);
  });

  test('a payment that arrives after the deadline, before the worker ran, is late, not on time', () => {
    const { state, events } = run(invoice(), [[pay('10.00'), afterExpiry(500)]]);
    expect(state).toMatchObject({ status: 'paid', paidLate: true });
    expect(events[0]).toBe('pending→invoice.expired');
  });

  test('pending + a seen payment dropped before confirming, nothing else pending → pending, tx_hash cleared', () => {
    const { state, events } = run(invoice(), [
      [pay('10.00', false, '0xa'), at(1000)],
      [{ kind: 'reversal', txHash: '0xa', currency: 'USDT' }, at(2000)],
    ]);
    expect(state).toMatchObject({ status: 'pending', txHash: null });
    expect(events).toEqual(['pending→invoice.payment_detected']);
  });

  test('a dropped payment no longer holds the invoice past its deadline', () => {
    const { state } = run(invoice(), [
      [pay('10.00', false, '0xa'), at(1000)],
      [{ kind: 'tick' }, afterExpiry(10)],
      [{ kind: 'reversal', txHash: '0xa', currency: 'USDT' }, afterExpiry(20)],
    ]);
    expect(state.status).toBe('expired');
  });

  test('money after close reversed after the late window leaves the expired invoice expired', () => {
    const { state, events } = run(invoice(), [
      [pay('1.00', true, '0xa'), afterExpiry(LATE_PAYMENT_WINDOW_MS + 1)],
      [{ kind: 'reversal', txHash: '0xa', currency: 'USDT' }, afterExpiry(LATE_PAYMENT_WINDOW_MS + 2)],
    ]);
    expect(state).toMatchObject({ status: 'expired', failureReason: null });
    expect(events).toEqual(['pending→invoice.expired', 'expired→invoice.payment_after_close']);
  });

  test('a payment mined again after a reversal is the latest standing: tx_hash names it', () => {
    const { state } = run(invoice(), [
      [pay('1.00', false, '0xa'), at(1000)],
      [{ kind: 'reversal', txHash: '0xa', currency: 'USDT' }, at(2000)],
      [pay('1.00', false, '0xb'), at(3000)],
      [pay('1.00', false, '0xa'), at(4000)],
    ]);
    expect(state.txHash).toBe('0xa');
  });

  test('of payments seen at the same instant, the greatest tx_hash is the latest, whatever the order seen', () => {
    for (const order of [
      ['0xa', '0xb'],
      ['0xb', '0xa'],
    ]) {
      const { state } = run(
        invoice(),
        order.map((tx) => [pay('1.00', false, tx), at(1000)]),
      );
      expect(state.txHash).toBe('0xb');
      expect(state.payments.map((p) => p.txHash)).toEqual(['0xa', '0xb']);
    }
  });

  test('a reversed confirmed payment on an open invoice → failed payment_reversed', () => {
    const { state } = run(invoice(), [
      [pay('4.00', true, '0xa'), at(1000)],
      [{ kind: 'reversal', txHash: '0xa', currency: 'USDT' }, at(2000)],
    ]);
    expect(state).toMatchObject({ status: 'failed', failureReason: 'payment_reversed' });
  });
});

describe('terminal states and repeats', () => {
  test.each(['paid', 'failed'] as const)('%s is terminal: no observation changes its status', (status) => {
    const start = invoice({ status, paidAt: status === 'paid' ? at(5) : null, txHash: '0xz' });
    for (const o of [
      pay('10.00'),
      pay('1.00', false),
      { kind: 'reversal', txHash: '0xz', currency: 'USDT' } as const,
      { kind: 'tick' } as const,
    ]) {
      const out = transition(start, o, afterExpiry(10));
      expect(out.state.status).toBe(status);
      // Money after close is announced; nothing else is.
      expect(out.emitted.filter((e) => e.type !== 'invoice.payment_after_close')).toEqual([]);
      expect(out.state.txHash).toBe('0xz');
    }
  });

  test('a repeated observation of the same transaction changes nothing', () => {
    const first = transition(invoice(), pay('3.00', true, '0xa'), at(1000));
    const again = transition(first.state, pay('3.00', true, '0xa'), at(2000));
    expect(again.changed).toBe(false);
    expect(again.emitted).toEqual([]);
    expect(again.state).toBe(first.state);
  });

  test('confirming a seen payment changes it once', () => {
    const seen = transition(invoice(), pay('3.00', false, '0xa'), at(1000));
    const confirmed = transition(seen.state, pay('3.00', true, '0xa'), at(2000));
    expect(confirmed.payment?.status).toBe('confirmed');
    expect(transition(confirmed.state, pay('3.00', true, '0xa'), at(3000)).changed).toBe(false);
  });

  test('a tick before the deadline changes nothing', () => {
    expect(transition(invoice(), { kind: 'tick' }, at(10)).changed).toBe(false);
  });

  test('a reversal of an unknown transaction changes nothing', () => {
    expect(
      transition(invoice(), { kind: 'reversal', txHash: '0xnope', currency: 'USDT' }, at(10)).changed,
    ).toBe(false);
  });

  test('amounts with 18 decimals add up exactly', () => {
    const { state } = run(invoice({ amount: toUnits('0.30') }), [
      [pay('0.100000000000000001', true, '0x1'), at(1)],
      [pay('0.199999999999999999', true, '0x2'), at(2)],
    ]);
    expect(state.status).toBe('paid');
  });
});

describe('what the lifecycle tells readers and workers', () => {
  const lateEnd = new Date(EXPIRES.getTime() + LATE_PAYMENT_WINDOW_MS);

  test('schedule: an open invoice is due at its deadline and takes payments through the late window', () => {
    expect(schedule(invoice())).toEqual({ dueAt: EXPIRES, openUntil: lateEnd });
  });

  test('schedule: a payment confirming since before the deadline holds it open until the window ends', () => {
    const { state } = run(invoice(), [[pay('10.00', false), at(10)]]);
    expect(schedule(state)).toEqual({ dueAt: lateEnd, openUntil: lateEnd });
  });

  test('schedule: an expired invoice needs no tick but still counts late payments; terminal ones neither', () => {
    const expired = stateAt(invoice(), afterExpiry(1));
    expect(expired.status).toBe('expired');
    expect(schedule(expired)).toEqual({ dueAt: null, openUntil: lateEnd });
    const { state: paid } = run(invoice(), [[pay('10.00'), at(10)]]);
    expect(schedule(paid)).toEqual({ dueAt: null, openUntil: null });
  });

  test('stateAt: a part-paid invoice past its deadline reads as failed (underpaid), before any worker ran', () => {
    const { state } = run(invoice(), [[pay('4.00'), at(10)]]);
    expect(state.status).toBe('pending');
    const now = stateAt(state, afterExpiry(1));
    expect(now).toMatchObject({ status: 'failed', failureReason: 'underpaid' });
    expect(stateAt(invoice(), afterExpiry(1)).status).toBe('expired');
  });

  test('outstanding: the amount less every standing payment, confirmed or confirming, never below zero', () => {
    const { state } = run(invoice(), [
      [pay('4.00', true, '0x1'), at(1)],
      [pay('3.00', false, '0x2'), at(2)],
    ]);
    expect(outstanding(state)).toBe(toUnits('3.00'));
    const reversed = transition(state, { kind: 'reversal', txHash: '0x2', currency: 'USDT' }, at(3)).state;
    expect(outstanding(reversed)).toBe(toUnits('6.00'));
    const over = run(invoice(), [[pay('12.00'), at(1)]]).state;
    expect(outstanding(over)).toBe(0n);
  });

  test('a payment keeps the block it was seen in, and takes the new one when mined again after a reversal', () => {
    const block1 = { number: 7n, hash: '0xb1' };
    const block2 = { number: 8n, hash: '0xb2' };
    const seen = transition(invoice(), { ...pay('10.00', false), block: block1 }, at(1));
    expect(seen.payment?.block).toEqual(block1);
    const confirmed = transition(seen.state, pay('10.00', true), at(2));
    expect(confirmed.payment?.block).toEqual(block1);
    const dropped = transition(seen.state, { kind: 'reversal', txHash: '0x10.00', currency: 'USDT' }, at(2));
    const again = transition(dropped.state, { ...pay('10.00', false), block: block2 }, at(3));
    expect(again.payment?.block).toEqual(block2);
  });
});
