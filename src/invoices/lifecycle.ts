import { type Money, remainder, sum } from '../money/money.js';
import type { FailureReason, InvoiceStatus, PaymentStatus } from './status.js';

/**
 * The invoice state machine of contract §9, as one pure function: (state, observation, now) →
 * (new state, events). No I/O and no clock of its own, so every row of the table is a unit test.
 * observe.ts is the only caller that persists its result. Every rule about time and money that
 * decides an invoice's fate is here, and only here: the database stores what these functions
 * computed (schedule()), it never re-derives it.
 */

export const LATE_PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;

export type EventType =
  | 'invoice.payment_detected'
  | 'invoice.payment_unaccepted'
  | 'invoice.paid'
  | 'invoice.expired'
  | 'invoice.failed';

/** Where a chain source saw a payment: it finds the payment again by block to confirm or reverse it. */
export interface BlockRef {
  number: bigint;
  hash: string;
}

/**
 * One transfer to the invoice. A payment is named by its transaction and token: one transaction may
 * carry two tokens to one invoice. `amount` is in the token, which pays the invoice currency at par
 * (USD = USDT = USDC, contract §15).
 */
export interface Payment {
  txHash: string;
  network: string;
  currency: string;
  amount: Money;
  status: PaymentStatus;
  seenAt: Date;
  confirmedAt: Date | null;
  reversedAt: Date | null;
  /** The block the payment is in, for payments found on a chain; null for the sandbox. */
  block: BlockRef | null;
}

export interface InvoiceState {
  status: InvoiceStatus;
  amount: Money;
  expiresAt: Date;
  paidAt: Date | null;
  txHash: string | null;
  paidLate: boolean;
  failureReason: FailureReason | null;
  /** Hundredths of a percent the confirmed payments may fall short and still pay (0 to 5000). */
  toleranceBasisPoints: number;
  payments: readonly Payment[];
}

export type Observation =
  | {
      kind: 'payment';
      txHash: string;
      network: string;
      currency: string;
      amount: Money;
      confirmed: boolean;
      /** False for a known token on a watched network that this invoice does not accept. */
      accepted?: boolean;
      block?: BlockRef | null;
    }
  | { kind: 'reversal'; txHash: string; currency: string }
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

/** A new invoice: pending, nothing paid yet. */
export function opened(amount: Money, expiresAt: Date, toleranceBasisPoints = 0): InvoiceState {
  return {
    status: 'pending',
    amount,
    expiresAt,
    paidAt: null,
    txHash: null,
    paidLate: false,
    failureReason: null,
    toleranceBasisPoints,
    payments: [],
  };
}

export const isTerminal = (s: InvoiceStatus) => s === 'paid' || s === 'failed';

export function confirmedTotal(state: InvoiceState): Money {
  return sum(state.payments.filter((p) => p.status === 'confirmed').map((p) => p.amount));
}

/**
 * What confirmed payments must reach for the invoice to be paid: the amount less the underpayment
 * tolerance (contract §15), rounded up to Money's last digit so that "at the threshold" is exact.
 */
export function threshold(state: InvoiceState): Money {
  const kept = state.amount * BigInt(10_000 - state.toleranceBasisPoints);
  return ((kept + 9_999n) / 10_000n) as Money;
}

const standing = (p: Payment) => p.status === 'pending' || p.status === 'confirmed';

/**
 * What is still to be sent: the amount less every accepted payment standing (confirmed or still
 * confirming), never below zero. A payment on its way counts, so nobody is asked to pay it a second time.
 */
export function outstanding(state: InvoiceState): Money {
  return remainder(state.amount, sum(state.payments.filter(standing).map((p) => p.amount)));
}

/** Whether two records name the same payment: one transaction, one token. */
export const samePayment = (
  a: { txHash: string; currency: string },
  b: { txHash: string; currency: string },
) => a.txHash === b.txHash && a.currency === b.currency;

/** A payment seen and not yet confirmed. */
export function confirming(state: InvoiceState): Payment | undefined {
  return state.payments.findLast((p) => p.status === 'pending');
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
  const lateWindowEnd = new Date(state.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS);
  switch (state.status) {
    case 'pending':
      return { dueAt: heldOpen(state) ? lateWindowEnd : state.expiresAt, openUntil: lateWindowEnd };
    case 'expired':
      return { dueAt: null, openUntil: lateWindowEnd };
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
  if (applied?.payment.status === 'unaccepted') {
    // Recorded and told, never credited: the invoice's status and schedule do not move.
    s = applied.state;
    if (applied.detected) {
      emitted.push({
        type: 'invoice.payment_unaccepted',
        previousStatus: s.status,
        state: s,
        payment: applied.payment,
      });
    }
  } else if (applied) {
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
  const existing = s.payments.find((p) => samePayment(p, o));
  let payment: Payment;
  let detected = false;
  let reversedConfirmed = false;
  if (o.kind === 'payment') {
    const accepted = o.accepted ?? true;
    const arrived = (): Payment => ({
      txHash: o.txHash,
      network: o.network,
      currency: o.currency,
      amount: o.amount,
      status: accepted ? (o.confirmed ? 'confirmed' : 'pending') : 'unaccepted',
      seenAt: now,
      confirmedAt: accepted && o.confirmed ? now : null,
      reversedAt: null,
      block: o.block ?? null,
    });
    if (!existing) {
      payment = arrived();
      detected = true;
    } else if (existing.status === 'pending' && o.confirmed) {
      payment = { ...existing, status: 'confirmed', confirmedAt: now };
    } else if (existing.status === 'reversed') {
      // Mined again after a reorganisation dropped it: the payment stands again, seen anew.
      payment = arrived();
      detected = true;
    } else {
      return undefined; // a repeated observation changes nothing
    }
  } else {
    if (!existing || existing.status === 'reversed') return undefined;
    reversedConfirmed = existing.status === 'confirmed';
    payment = { ...existing, status: 'reversed', reversedAt: now };
  }
  // A payment seen anew (mined again after a reversal) moves to where its new seenAt puts it.
  const payments =
    existing && !detected
      ? s.payments.map((p) => (p === existing ? payment : p))
      : [...s.payments.filter((p) => p !== existing), payment].sort(seenOrder);
  const next: InvoiceState = { ...s, payments };
  // Terminal invoices keep their tx_hash; open ones show the latest payment still standing.
  if (!isTerminal(s.status)) next.txHash = latestStanding(payments);
  return { state: next, payment, detected, reversedConfirmed };
}

/**
 * The order of `payments`: as seen, and those seen at the same instant (one block's transfers) by
 * tx_hash, so that "the latest" is the same whether the state was just computed or read back from rows
 * in whatever order the database returns them.
 */
export function seenOrder(a: Payment, b: Payment): number {
  return a.seenAt.getTime() - b.seenAt.getTime() || (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0);
}

function latestStanding(payments: readonly Payment[]): string | null {
  for (let i = payments.length - 1; i >= 0; i--) {
    const p = payments[i] as Payment;
    if (standing(p)) return p.txHash;
  }
  return null;
}

/** Decides paid / failed after the payments changed. */
function settle(s: InvoiceState, now: Date, emitted: Emitted[], reversedConfirmed: boolean): InvoiceState {
  if (isTerminal(s.status)) return s;
  const from = s.status;
  const inLateWindow = now.getTime() <= s.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS;
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
  const due = threshold(s);
  if (from === 'pending' && paid >= due) {
    // On time: before the deadline, or held open past it by a payment first seen before it.
    return emit(emitted, from, { ...s, status: 'paid', paidAt: now }, 'invoice.paid');
  }
  if (from === 'expired' && inLateWindow) {
    if (paid >= due) {
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
