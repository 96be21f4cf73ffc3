import { type Applied, announcement, applyObservation } from './arrival.js';
import {
  confirmedTotal,
  type Emitted,
  type EventType,
  finalTotal,
  type InvoiceState,
  isTerminal,
  lateWindowEnd,
  type Observation,
  type Payment,
  threshold,
} from './invoice-state.js';
import type { InvoiceStatus } from './status.js';

/**
 * The invoice state machine of contract §9, as one pure function: (state, observation, now) →
 * (new state, events). No I/O and no clock of its own, so every row of the table is a unit test.
 * observe.ts is the only caller that persists its result. Every rule about time and money that
 * decides an invoice's fate is here (and in arrival.ts, which says what a transfer is), and only
 * here: the database stores what these functions computed (schedule()), it never re-derives it.
 */

export {
  afterCloseTotal,
  type BlockRef,
  confirmedTotal,
  confirming,
  type Emitted,
  type EventType,
  type InvoiceState,
  isTerminal,
  LATE_PAYMENT_WINDOW_MS,
  type Observation,
  opened,
  outstanding,
  type Payment,
  samePayment,
  seenOrder,
  threshold,
  towardsInvoice,
} from './invoice-state.js';

export interface Outcome {
  state: InvoiceState;
  emitted: Emitted[];
  /** The payment row the observation created or changed, if any. */
  payment?: Payment;
  changed: boolean;
}

/** A payment first seen before the deadline and still unconfirmed holds the invoice open past it. */
function heldOpen(state: InvoiceState): boolean {
  return (
    state.status === 'pending' &&
    state.payments.some((p) => p.status === 'pending' && p.seenAt.getTime() <= state.expiresAt.getTime())
  );
}

export interface Schedule {
  /** When the passing of time next changes the invoice (the expiry worker's cue); null: never. */
  dueAt: Date | null;
  /** Until when a payment to the invoice still counts (the late window); null: never again. */
  openUntil: Date | null;
}

/** What the database keeps for the workers and watchers to query, so they never re-derive the rules. */
export function schedule(state: InvoiceState): Schedule {
  const lateEnd = new Date(lateWindowEnd(state));
  switch (state.status) {
    case 'pending':
      return { dueAt: heldOpen(state) ? lateEnd : state.expiresAt, openUntil: lateEnd };
    case 'expired':
      return { dueAt: null, openUntil: lateEnd };
    default:
      return { dueAt: null, openUntil: null };
  }
}

/** The invoice as it stands at `now`, had the expiry worker already passed: what a reader should show. */
export function stateAt(state: InvoiceState, now: Date): InvoiceState {
  return transition(state, { kind: 'tick' }, now).state;
}

export function transition(state: InvoiceState, observation: Observation, now: Date): Outcome {
  const emitted: Emitted[] = [];
  // Expiry is applied lazily too: an observation that arrives after the deadline, before the worker
  // got to the invoice, finds it expired first, exactly as if the worker had been instant.
  let s = expireIfDue(state, now, emitted);
  const applied = observation.kind === 'tick' ? undefined : applyObservation(s, observation, now);
  if (applied) s = paymentChanged(applied, now, emitted);
  s = expireIfDue(s, now, emitted);
  const changed = s !== state;
  return { state: s, emitted, changed, ...(applied ? { payment: applied.payment } : {}) };
}

function paymentChanged(applied: Applied, now: Date, emitted: Emitted[]): InvoiceState {
  const { state: s, payment } = applied;
  const told = announcement(applied);
  if (told !== undefined) {
    // Recorded (and told, where there is something to tell), never credited: the invoice's status and
    // schedule do not move.
    if (told) emitted.push({ type: told, previousStatus: s.status, state: s, payment });
    return s;
  }
  // Dust is no payment a merchant should act on: it is shown on the invoice, and announces nothing.
  const credited = payment.status !== 'dust';
  if (applied.detected && credited && (s.status === 'pending' || s.status === 'expired')) {
    emitted.push({ type: 'invoice.payment_detected', previousStatus: s.status, state: s, payment });
  }
  return settle(s, now, emitted, applied.reversedConfirmed);
}

/** Decides paid / failed after the payments changed. */
function settle(s: InvoiceState, now: Date, emitted: Emitted[], reversedConfirmed: boolean): InvoiceState {
  if (isTerminal(s.status)) return s;
  const from = s.status;
  const inLateWindow = now.getTime() <= lateWindowEnd(s);
  // Past the late window an expired invoice only records payments, and so only records their reversal.
  if (reversedConfirmed && (from === 'pending' || inLateWindow)) {
    return emit(
      emitted,
      from,
      { ...s, status: 'failed', failureReason: 'payment_reversed' },
      'invoice.failed',
    );
  }
  const paid = confirmedTotal(s);
  // Dust counts towards completing the invoice, together with the payments that do the rest.
  const complete = paid + finalTotal(s, 'dust') >= threshold(s);
  if (from === 'pending' && complete) {
    // On time: before the deadline, or held open past it by a payment first seen before it.
    return emit(emitted, from, joinDust({ ...s, status: 'paid', paidAt: now }), 'invoice.paid');
  }
  if (from === 'expired' && inLateWindow) {
    if (complete) {
      const late = joinDust({ ...s, status: 'paid', paidAt: now, paidLate: true });
      return emit(emitted, from, late, 'invoice.paid');
    }
    // Dust alone never fails an invoice: only a credited part-payment does.
    if (paid > 0n)
      return emit(emitted, from, { ...s, status: 'failed', failureReason: 'underpaid' }, 'invoice.failed');
  }
  return s;
}

/**
 * An invoice paid with the help of dust credits it: each dust payment becomes an ordinary one,
 * `confirmed` (in `amount_paid`) or, while still confirming, `pending` (counted once it confirms).
 */
function joinDust(s: InvoiceState): InvoiceState {
  if (!s.payments.some((p) => p.status === 'dust')) return s;
  const joined = (p: Payment): Payment =>
    p.status === 'dust' ? { ...p, status: p.confirmedAt === null ? 'pending' : 'confirmed' } : p;
  return { ...s, payments: s.payments.map(joined) };
}

/**
 * pending past its deadline, with nothing holding it open: expired, or failed if partly paid. Dust
 * neither holds it open nor fails it.
 */
function expireIfDue(s: InvoiceState, now: Date, emitted: Emitted[]): InvoiceState {
  if (s.status !== 'pending' || now.getTime() <= s.expiresAt.getTime()) return s;
  const holdOver = now.getTime() > lateWindowEnd(s);
  if (heldOpen(s) && !holdOver) return s;
  if (confirmedTotal(s) > 0n) {
    return emit(emitted, 'pending', { ...s, status: 'failed', failureReason: 'underpaid' }, 'invoice.failed');
  }
  return emit(emitted, 'pending', { ...s, status: 'expired' }, 'invoice.expired');
}

function emit(emitted: Emitted[], from: InvoiceStatus, to: InvoiceState, type: EventType): InvoiceState {
  emitted.push({ type, previousStatus: from, state: to });
  return to;
}
