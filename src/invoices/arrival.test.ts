import { describe, expect, test } from 'vitest';
import { money } from '../money/money.js';
import {
  afterCloseTotal,
  confirmedTotal,
  type InvoiceState,
  LATE_PAYMENT_WINDOW_MS,
  type Observation,
  opened,
  outstanding,
  transition,
} from './lifecycle.js';

// Contract §21 through the pure lifecycle, rule by rule: which kind of payment a transfer is (dust,
// money after close, credited) and what each may and may not change. 10.00 invoices, dust below 1 %.

const T0 = new Date('2026-11-21T10:00:00.000Z');
const EXPIRES = new Date(T0.getTime() + 3600_000);
const at = (ms: number) => new Date(T0.getTime() + ms);
const afterExpiry = (ms: number) => new Date(EXPIRES.getTime() + ms);
const invoice = (tolerance = 0) => opened(money('10.00'), EXPIRES, tolerance, 100);

const pay = (
  amount: string,
  txHash: string,
  confirmed = true,
): Extract<Observation, { kind: 'payment' }> => ({
  kind: 'payment',
  network: 'sandbox',
  currency: 'USDT',
  txHash,
  amount: money(amount),
  confirmed,
});

function run(state: InvoiceState, steps: Array<[Observation, Date]>) {
  let s = state;
  const events: string[] = [];
  for (const [o, now] of steps) {
    const out = transition(s, o, now);
    s = out.state;
    events.push(...out.emitted.map((e) => `${e.previousStatus}→${e.type}`));
  }
  return { state: s, events, statuses: s.payments.map((p) => p.status) };
}

describe('dust never decides', () => {
  test('0.01 to a 10.00 invoice is dust: no tx_hash, nothing credited or due less, no event', () => {
    const { state, events, statuses } = run(invoice(), [[pay('0.01', '0xd', false), at(1000)]]);
    expect(statuses).toEqual(['dust']);
    expect(state).toMatchObject({ status: 'pending', txHash: null });
    expect(outstanding(state)).toBe(money('10.00'));
    expect(events).toEqual([]);
    const confirmed = run(state, [[pay('0.01', '0xd'), at(2000)]]);
    expect(confirmed.statuses).toEqual(['dust']);
    expect(confirmedTotal(confirmed.state)).toBe(0n);
  });

  test('just below 1 % is dust, 1 % is not', () => {
    expect(run(invoice(), [[pay('0.099999', '0xa'), at(1000)]]).statuses).toEqual(['dust']);
    expect(run(invoice(), [[pay('0.10', '0xa'), at(1000)]]).statuses).toEqual(['confirmed']);
  });

  test('a small payment that completes the invoice is no dust: it pays', () => {
    const { state, statuses } = run(invoice(), [
      [pay('9.95', '0xa'), at(1000)],
      [pay('0.05', '0xb'), at(2000)],
    ]);
    expect(statuses).toEqual(['confirmed', 'confirmed']);
    expect(state.status).toBe('paid');
  });

  test('dust alone at expiry: expired, never failed; the full late payment pays it, the dust joining', () => {
    const { state, events, statuses } = run(invoice(), [
      [pay('0.05', '0xd'), at(1000)],
      [{ kind: 'tick' }, afterExpiry(1)],
      [pay('10.00', '0xa'), afterExpiry(LATE_PAYMENT_WINDOW_MS - 1)],
    ]);
    expect(events).toEqual([
      'pending→invoice.expired',
      'expired→invoice.payment_detected',
      'expired→invoice.paid',
    ]);
    expect(state).toMatchObject({ status: 'paid', paidLate: true });
    expect(statuses).toEqual(['confirmed', 'confirmed']);
    expect(confirmedTotal(state)).toBe(money('10.05'));
  });

  test('final dust counts towards completing the invoice with the payment that does the rest', () => {
    const { state, statuses } = run(invoice(), [
      [pay('0.05', '0xd'), at(1000)],
      [pay('9.95', '0xa'), at(2000)],
    ]);
    expect(state.status).toBe('paid');
    expect(statuses).toEqual(['confirmed', 'confirmed']);
    expect(confirmedTotal(state)).toBe(money('10.00'));
  });

  test('dust still confirming counts once it confirms, and joins as confirming when not needed', () => {
    const needed = run(invoice(), [
      [pay('0.05', '0xd', false), at(1000)],
      [pay('9.95', '0xa'), at(2000)],
    ]);
    expect(needed.state.status).toBe('pending');
    const done = run(needed.state, [[pay('0.05', '0xd'), at(3000)]]);
    expect(done.state.status).toBe('paid');
    expect(done.statuses).toEqual(['confirmed', 'confirmed']);

    const extra = run(invoice(), [
      [pay('0.05', '0xd', false), at(1000)],
      [pay('10.00', '0xa'), at(2000)],
    ]);
    expect(extra.state.status).toBe('paid');
    expect(extra.statuses).toEqual(['pending', 'confirmed']);
    expect(confirmedTotal(run(extra.state, [[pay('0.05', '0xd'), at(3000)]]).state)).toBe(money('10.05'));
  });

  test('dust neither holds an invoice open past its deadline nor fails it when reversed', () => {
    const held = run(invoice(), [
      [pay('0.05', '0xd', false), at(1000)],
      [{ kind: 'tick' }, afterExpiry(1)],
    ]);
    expect(held.state.status).toBe('expired');
    const reversed = run(invoice(), [
      [pay('0.05', '0xd'), at(1000)],
      [{ kind: 'reversal', txHash: '0xd', currency: 'USDT' }, at(2000)],
    ]);
    expect(reversed.state).toMatchObject({ status: 'pending', failureReason: null });
  });

  test('a dust share of 0 makes no payment dust', () => {
    const state = opened(money('10.00'), EXPIRES, 0, 0);
    expect(run(state, [[pay('0.01', '0xa', false), at(1000)]]).statuses).toEqual(['pending']);
  });
});

describe('money after close', () => {
  const paid = run(invoice(), [[pay('10.00', '0xa'), at(1000)]]).state;

  test('to a paid invoice: after_close, never credited, announced once when final', () => {
    const seen = run(paid, [[pay('2.00', '0xb', false), at(2000)]]);
    expect(seen.statuses).toEqual(['confirmed', 'after_close']);
    expect(seen.events).toEqual([]);
    expect(afterCloseTotal(seen.state)).toBe(0n);
    const final = run(seen.state, [
      [pay('2.00', '0xb'), at(3000)],
      [pay('2.00', '0xb'), at(4000)],
    ]);
    expect(final.events).toEqual(['paid→invoice.payment_after_close']);
    expect(final.state).toMatchObject({ status: 'paid', txHash: '0xa' });
    expect(confirmedTotal(final.state)).toBe(money('10.00'));
    expect(afterCloseTotal(final.state)).toBe(money('2.00'));
  });

  test('to a failed invoice, and to one expired past its late window; within it, a late payment', () => {
    const failed = run(invoice(), [
      [pay('4.00', '0xa'), at(1000)],
      [{ kind: 'tick' }, afterExpiry(1)],
      [pay('2.00', '0xb'), afterExpiry(2)],
    ]);
    expect(failed.state).toMatchObject({ status: 'failed', failureReason: 'underpaid' });
    expect(failed.statuses).toEqual(['confirmed', 'after_close']);
    expect(failed.events.at(-1)).toBe('failed→invoice.payment_after_close');

    const long = run(invoice(), [[pay('10.00', '0xa'), afterExpiry(LATE_PAYMENT_WINDOW_MS + 1)]]);
    expect(long.state.status).toBe('expired');
    expect(long.statuses).toEqual(['after_close']);
    expect(long.events).toEqual(['pending→invoice.expired', 'expired→invoice.payment_after_close']);

    const late = run(invoice(), [[pay('10.00', '0xa'), afterExpiry(LATE_PAYMENT_WINDOW_MS)]]);
    expect(late.state).toMatchObject({ status: 'paid', paidLate: true });
  });

  test('a payment seen while the invoice was open and confirmed after it closed is credited', () => {
    const open = run(invoice(), [
      [pay('1.00', '0xb', false), at(500)],
      [pay('10.00', '0xa'), at(1000)],
      [pay('1.00', '0xb'), at(2000)],
    ]);
    expect(open.state.status).toBe('paid');
    expect(open.statuses).toEqual(['confirmed', 'confirmed']);
    expect(confirmedTotal(open.state)).toBe(money('11.00'));
  });

  test('an unaccepted token stays unaccepted after close', () => {
    const usdc: Observation = { ...pay('2.00', '0xb'), currency: 'USDC', accepted: false };
    const { statuses, events } = run(paid, [[usdc, at(2000)]]);
    expect(statuses).toEqual(['confirmed', 'unaccepted']);
    expect(events).toEqual(['paid→invoice.payment_unaccepted']);
  });
});
