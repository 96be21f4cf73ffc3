import type { InvoiceStatus } from './invoice.js';

/**
 * The invoice state machine of contract §9, as one pure function: (state, observation, now) →
 * (new state, events). No I/O and no clock of its own, so every row of the table is a unit test.
 * transition.ts is the only caller that persists its result.
 */

export const LATE_PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;

export type FailureReason = 'underpaid' | 'payment_reversed';
export type PaymentStatus = 'pending' | 'confirmed' | 'reversed';
export type EventType = 'invoice.payment_detected' | 'invoice.paid' | 'invoice.expired' | 'invoice.failed';

export interface Payment {
  txHash: string;
  /** In 10^-18 units (money.ts). */
  amount: bigint;
  status: PaymentStatus;
  seenAt: Date;
  confirmedAt: Date | null;
  reversedAt: Date | null;
}

export interface InvoiceState {
  status: InvoiceStatus;
  amount: bigint;
  expiresAt: Date;
  paidAt: Date | null;
  txHash: string | null;
  paidLate: boolean;
  failureReason: FailureReason | null;
  payments: readonly Payment[];
}

export type Observation =
  | { kind: 'payment'; txHash: string; amount: bigint; confirmed: boolean }
  | { kind: 'reversal'; txHash: string }
  /** Time has passed: the expiry worker's nudge. */
  | { kind: 'tick' };

export interface Emitted {
  type: EventType;
  previousStatus: InvoiceStatus;
  /** The invoice as this event reports it (several events may come out of one observation). */
  state: InvoiceState;
  payment?: Payment;
}

export interface Outcome {
  state: InvoiceState;
  emitted: Emitted[];
  /** The payment row the observation created or changed, if any. */
  payment?: Payment;
  changed: boolean;
}

export const isTerminal = (s: InvoiceStatus) => s === 'paid' || s === 'failed';

export function confirmedTotal(state: InvoiceState): bigint {
  return state.payments.reduce((sum, p) => (p.status === 'confirmed' ? sum + p.amount : sum), 0n);
}

/** A payment first seen before the deadline and still unconfirmed holds the invoice open past it. */
export function awaitingConfirmation(state: InvoiceState): boolean {
  return (
    state.status === 'pending' &&
    state.payments.some((p) => p.status === 'pending' && p.seenAt.getTime() <= state.expiresAt.getTime())
  );
}

export function transition(state: InvoiceState, observation: Observation, now: Date): Outcome {
  const emitted: Emitted[] = [];
  // Expiry is applied lazily too: an observation that arrives after the deadline, before the worker
  // got to the invoice, finds it expired first, exactly as if the worker had been instant.
  let s = expireIfDue(state, now, emitted);
  const applied = observation.kind === 'tick' ? undefined : applyObservation(s, observation, now);
  if (applied) {
    s = applied.state;
    if (applied.detected && (s.status === 'pending' || s.status === 'expired')) {
      emitted.push({
        type: 'invoice.payment_detected',
        previousStatus: s.status,
        state: s,
        payment: applied.payment,
      });
    }
    s = settle(s, now, emitted, applied.reversedConfirmed);
  }
  s = expireIfDue(s, now, emitted);
  const changed = s !== state;
  return { state: s, emitted, changed, ...(applied ? { payment: applied.payment } : {}) };
}

interface Applied {
  state: InvoiceState;
  payment: Payment;
  detected: boolean;
  reversedConfirmed: boolean;
}

function applyObservation(
  s: InvoiceState,
  o: Exclude<Observation, { kind: 'tick' }>,
  now: Date,
): Applied | undefined {
  const existing = s.payments.find((p) => p.txHash === o.txHash);
  let payment: Payment;
  let detected = false;
  let reversedConfirmed = false;
  if (o.kind === 'payment') {
    if (!existing) {
      payment = {
        txHash: o.txHash,
        amount: o.amount,
        status: o.confirmed ? 'confirmed' : 'pending',
        seenAt: now,
        confirmedAt: o.confirmed ? now : null,
        reversedAt: null,
      };
      detected = true;
    } else if (existing.status === 'pending' && o.confirmed) {
      payment = { ...existing, status: 'confirmed', confirmedAt: now };
    } else if (existing.status === 'reversed') {
      // Mined again after a reorganisation dropped it: the payment stands again, seen anew.
      payment = {
        ...existing,
        amount: o.amount,
        status: o.confirmed ? 'confirmed' : 'pending',
        seenAt: now,
        confirmedAt: o.confirmed ? now : null,
        reversedAt: null,
      };
      detected = true;
    } else {
      return undefined; // a repeated observation changes nothing
    }
  } else {
    if (!existing || existing.status === 'reversed') return undefined;
    reversedConfirmed = existing.status === 'confirmed';
    payment = { ...existing, status: 'reversed', reversedAt: now };
  }
  const payments = existing
    ? s.payments.map((p) => (p === existing ? payment : p))
    : [...s.payments, payment];
  const next: InvoiceState = { ...s, payments };
  // Terminal invoices keep their tx_hash; open ones show the latest payment still standing.
  if (!isTerminal(s.status)) next.txHash = latestStanding(payments);
  return { state: next, payment, detected, reversedConfirmed };
}

function latestStanding(payments: readonly Payment[]): string | null {
  for (let i = payments.length - 1; i >= 0; i--) {
    const p = payments[i] as Payment;
    if (p.status !== 'reversed') return p.txHash;
  }
  return null;
}

/** Decides paid / failed after the payments changed. */
function settle(s: InvoiceState, now: Date, emitted: Emitted[], reversedConfirmed: boolean): InvoiceState {
  if (isTerminal(s.status)) return s;
  const from = s.status;
  if (reversedConfirmed) {
    return emit(
      emitted,
      from,
      { ...s, status: 'failed', failureReason: 'payment_reversed' },
      'invoice.failed',
    );
  }
  const paid = confirmedTotal(s);
  if (from === 'pending' && paid >= s.amount) {
    // On time: before the deadline, or held open past it by a payment first seen before it.
    return emit(emitted, from, { ...s, status: 'paid', paidAt: now }, 'invoice.paid');
  }
  if (from === 'expired' && now.getTime() <= s.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS) {
    if (paid >= s.amount) {
      return emit(emitted, from, { ...s, status: 'paid', paidAt: now, paidLate: true }, 'invoice.paid');
    }
    if (paid > 0n)
      return emit(emitted, from, { ...s, status: 'failed', failureReason: 'underpaid' }, 'invoice.failed');
  }
  return s;
}

/** pending past its deadline, with nothing holding it open: expired, or failed if partly paid. */
function expireIfDue(s: InvoiceState, now: Date, emitted: Emitted[]): InvoiceState {
  if (s.status !== 'pending' || now.getTime() <= s.expiresAt.getTime()) return s;
  const holdOver = now.getTime() > s.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS;
  if (awaitingConfirmation(s) && !holdOver) return s;
  if (confirmedTotal(s) > 0n) {
    return emit(emitted, 'pending', { ...s, status: 'failed', failureReason: 'underpaid' }, 'invoice.failed');
  }
  return emit(emitted, 'pending', { ...s, status: 'expired' }, 'invoice.expired');
}

function emit(emitted: Emitted[], from: InvoiceStatus, to: InvoiceState, type: EventType): InvoiceState {
  emitted.push({ type, previousStatus: from, state: to });
  return to;
}
