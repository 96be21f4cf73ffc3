import type { InvoiceEventType } from '../events/catalogue.js';
import { type Money, remainder, sum } from '../money/money.js';
import type { FailureReason, InvoiceStatus, PaymentStatus } from './status.js';

/**
 * What the lifecycle (lifecycle.ts) reasons about: an invoice's state and its payments, and what they
 * add up to. Pure values and sums; the rules that move a state are in lifecycle.ts and arrival.ts.
 */

export const LATE_PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What the lifecycle announces: every invoice event but `invoice.created`, which creating writes. */
export type EventType = Exclude<InvoiceEventType, 'invoice.created'>;

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
  /** When it became final: set for `confirmed`, and for `dust` and `after_close` once buried. */
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
  /** A payment below this many hundredths of a percent of the amount may be dust (contract §21). */
  dustBasisPoints: number;
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

/** A new invoice: pending, nothing paid yet. */
export function opened(
  amount: Money,
  expiresAt: Date,
  toleranceBasisPoints = 0,
  dustBasisPoints = 0,
): InvoiceState {
  return {
    status: 'pending',
    amount,
    expiresAt,
    paidAt: null,
    txHash: null,
    paidLate: false,
    failureReason: null,
    toleranceBasisPoints,
    dustBasisPoints,
    payments: [],
  };
}

export const isTerminal = (s: InvoiceStatus) => s === 'paid' || s === 'failed';

export const lateWindowEnd = (s: InvoiceState) => s.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS;

/** The sum of the payments in `status` that are final: `confirmed`, or final `dust` or `after_close`. */
export function finalTotal(state: InvoiceState, status: PaymentStatus): Money {
  const final = state.payments.filter((p) => p.status === status && p.confirmedAt !== null);
  return sum(final.map((p) => p.amount));
}

/** What `amount_paid` counts: the confirmed payments. */
export const confirmedTotal = (state: InvoiceState): Money => finalTotal(state, 'confirmed');

/** Money that arrived after close and is final: refundable, never credited (contract §21). */
export const afterCloseTotal = (state: InvoiceState): Money => finalTotal(state, 'after_close');

/**
 * A payment made towards the invoice as it asked, standing or since reversed: not one it only records
 * (unaccepted, dust, after close). The first of them shows which method the payer chose.
 */
export const towardsInvoice = (p: Payment) =>
  p.status === 'pending' || p.status === 'confirmed' || p.status === 'reversed';

/**
 * What confirmed payments must reach for the invoice to be paid: the amount less the underpayment
 * tolerance (contract §15), rounded up to Money's last digit so that "at the threshold" is exact.
 */
export function threshold(state: InvoiceState): Money {
  const kept = state.amount * BigInt(10_000 - state.toleranceBasisPoints);
  return ((kept + 9_999n) / 10_000n) as Money;
}

/** A credited payment confirmed or still confirming. */
export const standing = (p: Payment) => p.status === 'pending' || p.status === 'confirmed';

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

/**
 * The order of `payments`: as seen, and those seen at the same instant (one block's transfers) by
 * tx_hash, so that "the latest" is the same whether the state was just computed or read back from rows
 * in whatever order the database returns them.
 */
export function seenOrder(a: Payment, b: Payment): number {
  return a.seenAt.getTime() - b.seenAt.getTime() || (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0);
}
