import fc from 'fast-check';
import type { Observation } from '../src/invoices/lifecycle.js';
import type { Money } from '../src/money/money.js';

/**
 * A reference model of contract §9 and docs/decisions.md ("Invoice lifecycle"), written from the prose
 * rather than from src/invoices/lifecycle.ts, and the random sequences of steps the model-based tests
 * replay against both: payments seen, confirmed, reversed, repeated and mined again, of partial, exact
 * and excess amounts, and the clock moving across the deadline and the late window.
 */

const HOUR = 3600_000;
export const T0 = Date.parse('2026-11-21T10:00:00.000Z');
export const TTL_MS = HOUR;
const LATE_WINDOW_MS = 24 * HOUR;
export const INVOICE_AMOUNT = 10n * 10n ** 18n; // 10.00

type Status = 'pending' | 'paid' | 'expired' | 'failed';
type PaymentStatus = 'pending' | 'confirmed' | 'reversed' | 'unaccepted';

/** The invoice accepts USDT (on sandbox); USDC stands for any known token or network it does not accept. */
export type Token = 'USDT' | 'USDC';
const ACCEPTED: Token = 'USDT';

export type Step =
  | { kind: 'pay'; tx: number; token: Token; amount: Money; confirmed: boolean }
  | { kind: 'reverse'; tx: number; token: Token }
  /** The expiry worker's nudge: the invoice is looked at with nothing new to report. */
  | { kind: 'tick' }
  | { kind: 'clock'; to: number };

/** A status change: what exactly one event must report. */
export interface Change {
  from: Status;
  to: Status;
}

interface ModelPayment {
  /** The transaction's hash: the payment's key also names its token. */
  tx: string;
  amount: bigint;
  status: PaymentStatus;
  seenAt: number;
}

export class InvoiceModel {
  status: Status = 'pending';
  failureReason: 'underpaid' | 'payment_reversed' | null = null;
  paidLate = false;
  readonly payments = new Map<string, ModelPayment>();
  /** What the current step changed and detected; reset by each step. */
  changes: Change[] = [];
  detected = 0;
  unaccepted = 0;
  private readonly expiresAt = T0 + TTL_MS;
  private readonly lateEnd = this.expiresAt + LATE_WINDOW_MS;

  /** `toleranceBasisPoints`: hundredths of a percent a short payment may miss by (contract §15). */
  constructor(private readonly toleranceBasisPoints = 0) {}

  /** "Paid once confirmed payments reach amount × (1 − tolerance/100)", never asking for a fraction less. */
  private due(): bigint {
    const kept = INVOICE_AMOUNT * BigInt(10_000 - this.toleranceBasisPoints);
    return kept / 10_000n + (kept % 10_000n === 0n ? 0n : 1n);
  }

  confirmedSum(): bigint {
    let total = 0n;
    for (const p of this.payments.values()) if (p.status === 'confirmed') total += p.amount;
    return total;
  }

  terminal(): boolean {
    return this.status === 'paid' || this.status === 'failed';
  }

  /**
   * "tx_hash is the latest payment still standing" (an open invoice); terminal ones keep theirs. Of
   * payments seen at the same instant, the greatest tx_hash counts as the latest.
   */
  latestStanding(): string | null {
    let best: [string, ModelPayment] | undefined;
    for (const p of this.payments.values()) {
      const { tx } = p;
      if (p.status === 'reversed' || p.status === 'unaccepted') continue;
      if (!best || p.seenAt > best[1].seenAt || (p.seenAt === best[1].seenAt && tx > best[0])) best = [tx, p];
    }
    return best?.[0] ?? null;
  }

  step(step: Step, now: number): void {
    this.changes = [];
    this.detected = 0;
    this.unaccepted = 0;
    if (step.kind === 'clock') return;
    // Lazy expiry: whatever arrives after the deadline finds the invoice as an instant worker left it.
    this.expireIfDue(now);
    if (step.kind === 'pay' && step.token !== ACCEPTED) this.record(key(step), step.amount, now);
    else if (step.kind === 'pay') this.pay(key(step), step.amount, step.confirmed, now);
    if (step.kind === 'reverse') this.reverse(key(step), now);
    this.expireIfDue(now);
  }

  private pay(tx: string, amount: bigint, confirmed: boolean, now: number) {
    const p = this.payments.get(tx);
    if (p && p.status !== 'reversed') {
      // Seen again: only a confirmation of a payment still confirming changes anything.
      if (p.status === 'pending' && confirmed) p.status = 'confirmed';
      else return;
    } else {
      // New, or mined again after a reorganisation dropped it: it stands again, seen anew.
      this.payments.set(tx, {
        tx: tx.split(' ')[0] as string,
        amount,
        status: confirmed ? 'confirmed' : 'pending',
        seenAt: now,
      });
      if (this.status === 'pending' || this.status === 'expired') this.detected++;
    }
    this.settle(now);
  }

  /**
   * A token the invoice does not accept: recorded and announced once (again if mined again after a
   * reorganisation), never confirmed, never credited; nothing else about the invoice moves.
   */
  private record(tx: string, amount: bigint, now: number) {
    const p = this.payments.get(tx);
    if (p && p.status !== 'reversed') return;
    this.payments.set(tx, { tx: tx.split(' ')[0] as string, amount, status: 'unaccepted', seenAt: now });
    this.unaccepted++;
  }

  private reverse(tx: string, now: number) {
    const p = this.payments.get(tx);
    if (!p || p.status === 'reversed') return;
    const wasConfirmed = p.status === 'confirmed';
    p.status = 'reversed';
    // "A confirmed payment reversed while the invoice is still open fails it"; open is pending, or
    // expired within the late window (after it, payments to an expired invoice are only recorded).
    const open = this.status === 'pending' || (this.status === 'expired' && now <= this.lateEnd);
    if (wasConfirmed && open) this.become('failed', 'payment_reversed');
  }

  private settle(now: number) {
    const paid = this.confirmedSum();
    if (this.status === 'pending' && paid >= this.due()) this.become('paid');
    else if (this.status === 'expired' && now <= this.lateEnd && paid > 0n) {
      if (paid >= this.due()) {
        this.paidLate = true;
        this.become('paid');
      } else this.become('failed', 'underpaid');
    }
  }

  private expireIfDue(now: number) {
    if (this.status !== 'pending' || now <= this.expiresAt) return;
    // "First seen before the deadline and still unconfirmed" holds it open, for the late window at most.
    const held =
      now <= this.lateEnd &&
      [...this.payments.values()].some((p) => p.status === 'pending' && p.seenAt <= this.expiresAt);
    if (held) return;
    if (this.confirmedSum() > 0n) this.become('failed', 'underpaid');
    else this.become('expired');
  }

  private become(to: Status, reason: 'underpaid' | 'payment_reversed' | null = null) {
    this.changes.push({ from: this.status, to });
    this.status = to;
    this.failureReason = reason;
  }
}

export const txHash = (tx: number) => `0x${tx.toString(16).padStart(64, '0')}`;
/** A payment is named by its transaction and token. */
const key = (step: { tx: number; token: Token }) => `${txHash(step.tx)} ${step.token}`;

const UNIT = 10n ** 18n;

/** Partial, exact and excess amounts, and odd ones with all 18 decimals. */
const amount = fc
  .oneof(
    fc.integer({ min: 1, max: 9 }).map((tenths) => (INVOICE_AMOUNT * BigInt(tenths)) / 10n),
    fc.constant(INVOICE_AMOUNT),
    fc.integer({ min: 1, max: 20 }).map((units) => INVOICE_AMOUNT + BigInt(units) * UNIT),
    fc.bigInt({ min: 1n, max: 2n * INVOICE_AMOUNT }),
  )
  .map((a) => a as Money);

/** Clock moves land on both sides of the deadline and of the late window's end, to the millisecond. */
const clockMove = fc.oneof(
  fc.integer({ min: 1, max: 20 * 60_000 }).map((ms) => ({ by: ms })),
  fc
    .tuple(fc.constantFrom(T0 + TTL_MS, T0 + TTL_MS + LATE_WINDOW_MS), fc.integer({ min: -2, max: 2 }))
    .map(([landmark, ms]) => ({ to: landmark + ms })),
);

/** A handful of transaction hashes, so that repeats, confirmations and reversals find their payment. */
const tx = fc.integer({ min: 0, max: 4 });
/** Mostly the accepted token; sometimes another, sharing transaction hashes with it. */
const token = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Token>('USDT') },
  { weight: 1, arbitrary: fc.constant<Token>('USDC') },
);

/** Tolerances from none to the most allowed (50 %), by hundredths of a percent. */
export const tolerance = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5000 }));

/** Steps with the clock as absolute times, never going back. */
export const steps = fc
  .array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant('pay'), tx, token, amount, confirmed: fc.boolean() }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse'), tx, token }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'tick' }) },
      { weight: 3, arbitrary: clockMove.map((move) => ({ kind: 'clock', move })) },
    ),
    { maxLength: 25 },
  )
  .map((raw) => {
    let now = T0;
    return raw.map((s): Step => {
      if (s.kind !== 'clock') return s as Step;
      const move = (s as { move: { by?: number; to?: number } }).move;
      now = move.to !== undefined ? Math.max(now, move.to) : now + (move.by ?? 0);
      return { kind: 'clock', to: now };
    });
  });

/** The observation a step reports; a clock move reports nothing (the worker's tick is its own step). */
export function observationOf(step: Step): Observation | undefined {
  switch (step.kind) {
    case 'pay':
      return {
        kind: 'payment',
        network: 'sandbox',
        currency: step.token,
        txHash: txHash(step.tx),
        amount: step.amount,
        confirmed: step.confirmed,
        accepted: step.token === ACCEPTED,
      };
    case 'reverse':
      return { kind: 'reversal', txHash: txHash(step.tx), currency: step.token };
    case 'tick':
      return { kind: 'tick' };
    default:
      return undefined;
  }
}
