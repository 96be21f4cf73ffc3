import fc from 'fast-check';
import type { Observation } from '../src/invoices/lifecycle.js';
import type { Money } from '../src/money/money.js';

/**
 * A reference model of contract §9, §21 and docs/decisions.md ("Invoice lifecycle", "Dust and money
 * after close"), written from the prose rather than from src/invoices/lifecycle.ts, and the random
 * sequences of steps the model-based tests replay against both: payments seen, confirmed, reversed,
 * repeated and mined again, of dust, partial, exact and excess amounts, and the clock moving across the
 * deadline and the late window.
 */

const HOUR = 3600_000;
export const T0 = Date.parse('2026-11-21T10:00:00.000Z');
export const TTL_MS = HOUR;
const LATE_WINDOW_MS = 24 * HOUR;
export const INVOICE_AMOUNT = 10n * 10n ** 18n; // 10.00

type Status = 'pending' | 'paid' | 'expired' | 'failed';
type PaymentStatus = 'pending' | 'confirmed' | 'reversed' | 'unaccepted' | 'dust' | 'after_close';

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
  /** Dust and money after close are final once buried, and keep their status. */
  final: boolean;
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
  afterClose = 0;
  private readonly expiresAt = T0 + TTL_MS;
  private readonly lateEnd = this.expiresAt + LATE_WINDOW_MS;

  /**
   * `toleranceBasisPoints`: hundredths of a percent a short payment may miss by (contract §15);
   * `dustBasisPoints`: below this share of the amount, a payment that does not complete it is dust (§21).
   */
  constructor(
    private readonly toleranceBasisPoints = 0,
    private readonly dustBasisPoints = 0,
  ) {}

  /** "Paid once confirmed payments reach amount × (1 − tolerance/100)", never asking for a fraction less. */
  private due(): bigint {
    const kept = INVOICE_AMOUNT * BigInt(10_000 - this.toleranceBasisPoints);
    return kept / 10_000n + (kept % 10_000n === 0n ? 0n : 1n);
  }

  confirmedSum(): bigint {
    return this.sumOf((p) => p.status === 'confirmed');
  }

  /** "Money after close that is final": what refunds may return on top of amount_paid. */
  afterCloseSum(): bigint {
    return this.sumOf((p) => p.status === 'after_close' && p.final);
  }

  /** Each payment's status, by transaction and token. */
  statuses(): Map<string, PaymentStatus> {
    return new Map([...this.payments].map(([k, p]) => [k, p.status]));
  }

  private sumOf(which: (p: ModelPayment) => boolean): bigint {
    let total = 0n;
    for (const p of this.payments.values()) if (which(p)) total += p.amount;
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
      if (p.status !== 'pending' && p.status !== 'confirmed') continue;
      if (!best || p.seenAt > best[1].seenAt || (p.seenAt === best[1].seenAt && tx > best[0])) best = [tx, p];
    }
    return best?.[0] ?? null;
  }

  step(step: Step, now: number): void {
    this.changes = [];
    this.detected = 0;
    this.unaccepted = 0;
    this.afterClose = 0;
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
      else if ((p.status === 'dust' || p.status === 'after_close') && !p.final && confirmed) {
        p.final = true;
        if (p.status === 'after_close') return void this.afterClose++;
      } else return;
    } else {
      // New, or mined again after a reorganisation dropped it: it stands again, seen anew. "A transfer
      // after the invoice is paid, failed, or expired past its late window" is money after close:
      // recorded, announced once it is final, never credited, nothing else moves.
      if (this.terminal() || (this.status === 'expired' && now > this.lateEnd)) {
        this.put(tx, amount, 'after_close', confirmed, now);
        if (confirmed) this.afterClose++;
        return;
      }
      const dust = this.isDust(amount);
      this.put(tx, amount, dust ? 'dust' : confirmed ? 'confirmed' : 'pending', confirmed, now);
      // Dust announces nothing.
      if (!dust) this.detected++;
    }
    this.settle(now);
  }

  private put(tx: string, amount: bigint, status: PaymentStatus, final: boolean, now: number) {
    this.payments.set(tx, { tx: tx.split(' ')[0] as string, amount, status, final, seenAt: now });
  }

  /**
   * "Below the dust share of the amount, and not completing the invoice with what already stands":
   * payments confirmed or confirming, and earlier dust.
   */
  private isDust(amount: bigint): boolean {
    if (amount * 10_000n >= INVOICE_AMOUNT * BigInt(this.dustBasisPoints)) return false;
    const stands = this.sumOf(
      (p) => p.status === 'pending' || p.status === 'confirmed' || p.status === 'dust',
    );
    return stands + amount < this.due();
  }

  /**
   * A token the invoice does not accept: recorded and announced once (again if mined again after a
   * reorganisation), never confirmed, never credited; nothing else about the invoice moves.
   */
  private record(tx: string, amount: bigint, now: number) {
    const p = this.payments.get(tx);
    if (p && p.status !== 'reversed') return;
    this.put(tx, amount, 'unaccepted', false, now);
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

  /**
   * Final dust counts towards completing the invoice with the other payments, and then joins them
   * (confirmed, or confirming while not yet final); on its own it never fails an invoice.
   */
  private settle(now: number) {
    const paid = this.confirmedSum();
    const complete = paid + this.sumOf((p) => p.status === 'dust' && p.final) >= this.due();
    const late = this.status === 'expired' && now <= this.lateEnd;
    if ((this.status === 'pending' || late) && complete) {
      for (const p of this.payments.values()) {
        if (p.status === 'dust') p.status = p.final ? 'confirmed' : 'pending';
      }
      this.paidLate = late;
      this.become('paid');
    } else if (late && paid > 0n) this.become('failed', 'underpaid');
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

/**
 * Partial, exact and excess amounts, odd ones with all 18 decimals, and dust: below 1 % of the amount
 * and around the 1 % line (the observe tests run at the default PAYDESK_DUST_PERCENT of 1).
 */
const amount = fc
  .oneof(
    fc.bigInt({ min: 1n, max: INVOICE_AMOUNT / 50n }),
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

/** Dust shares from none (no dust) to the most allowed (50 %), mostly the default 1 %. */
export const dustShare = fc.oneof(
  { weight: 2, arbitrary: fc.constant(100) },
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5000 }) },
);

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
