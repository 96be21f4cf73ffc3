import { type Money, sum } from '../money/money.js';
import {
  type EventType,
  type InvoiceState,
  isTerminal,
  lateWindowEnd,
  type Observation,
  type Payment,
  samePayment,
  seenOrder,
  standing,
  threshold,
} from './invoice-state.js';
import type { PaymentStatus } from './status.js';

/**
 * What a payment or reversal does to an invoice's list of payments, before the lifecycle
 * (lifecycle.ts) decides what that means for the invoice: which kind of payment a new transfer is
 * (credited, unaccepted, dust or after close), its confirmation, its reversal.
 */

export interface Applied {
  state: InvoiceState;
  payment: Payment;
  detected: boolean;
  /** The payment became final with this observation. */
  finalNow: boolean;
  reversedConfirmed: boolean;
}

/**
 * For a payment the invoice only records, what to announce: `invoice.payment_unaccepted` when first
 * seen; `invoice.payment_after_close` once, when it is final, for then the money is the merchant's to
 * refund; false for nothing. Undefined for every other payment.
 */
export function announcement(a: Applied): EventType | false | undefined {
  switch (a.payment.status) {
    case 'unaccepted':
      return a.detected && 'invoice.payment_unaccepted';
    case 'after_close':
      return a.finalNow && 'invoice.payment_after_close';
    default:
      return undefined;
  }
}

/**
 * Whether the invoice no longer takes payments: paid, failed, or expired past its late window. A
 * transfer then is money after close (contract §21).
 */
function closed(s: InvoiceState, now: Date): boolean {
  return isTerminal(s.status) || (s.status === 'expired' && now.getTime() > lateWindowEnd(s));
}

/**
 * Dust (contract §21): below the invoice's dust share of its amount, and not completing the invoice
 * with what already stands (credited payments confirmed or confirming, and earlier dust). Dust never
 * decides: it holds nothing open, fails nothing and changes nothing the payer is asked for.
 */
function isDust(s: InvoiceState, amount: Money): boolean {
  if (amount * 10_000n >= s.amount * BigInt(s.dustBasisPoints)) return false;
  const standingOrDust = s.payments.filter((p) => standing(p) || p.status === 'dust');
  return sum(standingOrDust.map((p) => p.amount)) + amount < threshold(s);
}

type PaymentObservation = Extract<Observation, { kind: 'payment' }>;

/** What a new transfer to the invoice is, in the order the rules apply. */
function arrivalStatus(s: InvoiceState, o: PaymentObservation, now: Date): PaymentStatus {
  if (!(o.accepted ?? true)) return 'unaccepted';
  if (closed(s, now)) return 'after_close';
  if (isDust(s, o.amount)) return 'dust';
  return o.confirmed ? 'confirmed' : 'pending';
}

/** Dust and money after close become final and keep their status; unaccepted payments never do. */
const finalises = (p: Payment) =>
  (p.status === 'dust' || p.status === 'after_close') && p.confirmedAt === null;

/** The payments after the observation; undefined when it changes nothing. */
export function applyObservation(
  s: InvoiceState,
  o: Exclude<Observation, { kind: 'tick' }>,
  now: Date,
): Applied | undefined {
  const existing = s.payments.find((p) => samePayment(p, o));
  let payment: Payment;
  let detected = false;
  let finalNow = false;
  let reversedConfirmed = false;
  if (o.kind === 'payment') {
    const arrived = (): Payment => {
      const status = arrivalStatus(s, o, now);
      finalNow = o.confirmed && status !== 'unaccepted';
      return {
        txHash: o.txHash,
        network: o.network,
        currency: o.currency,
        amount: o.amount,
        status,
        seenAt: now,
        confirmedAt: finalNow ? now : null,
        reversedAt: null,
        block: o.block ?? null,
      };
    };
    if (!existing) {
      payment = arrived();
      detected = true;
    } else if (existing.status === 'pending' && o.confirmed) {
      payment = { ...existing, status: 'confirmed', confirmedAt: now };
      finalNow = true;
    } else if (finalises(existing) && o.confirmed) {
      payment = { ...existing, confirmedAt: now };
      finalNow = true;
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
  return { state: next, payment, detected, finalNow, reversedConfirmed };
}

function latestStanding(payments: readonly Payment[]): string | null {
  for (let i = payments.length - 1; i >= 0; i--) {
    const p = payments[i] as Payment;
    if (standing(p)) return p.txHash;
  }
  return null;
}
