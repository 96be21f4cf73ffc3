import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { newEvent, type OutboxEvent } from '../events/body.js';
import { insertEvents } from '../events/repository.js';
import { currencyDecimals } from '../money/currencies.js';
import { formatMoney, type Money, money } from '../money/money.js';
import { type RefundRecord, toInvoice } from './invoice.js';
import type { InvoiceRow, PaymentRow } from './invoice.table.js';
import {
  afterCloseTotal,
  confirmedTotal,
  type Emitted,
  type InvoiceState,
  type Observation,
  type Payment,
  schedule,
  seenOrder,
  towardsInvoice,
  transition,
} from './lifecycle.js';
import * as repo from './observe.repository.js';
import { inInvoiceCurrency } from './pricing.js';

/**
 * The one code path that changes an invoice or its payments (contract §5): lock the rows, run the pure
 * state machine, write the new state, the payments and the resulting events (the outbox) in one
 * transaction. Every payment source (the sandbox, each chain watcher) only reports observations here;
 * the expiry job reports the passing of time.
 */

export interface ObserveContext {
  now: Date;
  /** For the invoice in event bodies (its payment_url). */
  publicBaseUrl: string;
}

/**
 * What a source reports about one invoice: an observation, or a function that decides it from the
 * invoice's state once its row is locked (the sandbox's "pay what is still due"), so that two
 * concurrent reports never both decide from the same stale state. Undefined: nothing to observe.
 */
export type Report = Observation | ((state: InvoiceState) => Observation | undefined);

export interface Reported {
  invoiceId: string;
  observation: Report;
}

/**
 * A confirming payment (a row of `confirmingUpTo`) now final on its chain: buried deep enough on an
 * EVM or TRON chain, finalized on Solana. Every family reports its confirmation the same way, here.
 */
export function confirmedPayment(
  network: string,
  p: { invoice_id: string; tx_hash: string; currency: string; amount: string },
): Reported {
  return {
    invoiceId: p.invoice_id,
    observation: {
      kind: 'payment',
      txHash: p.tx_hash,
      network,
      currency: p.currency,
      amount: money(p.amount),
      confirmed: true,
    },
  };
}

/**
 * Several reports in one transaction (a chain watcher's block of transfers): the invoices are locked
 * in id order, so two batches over overlapping invoices can never deadlock, and a batch costs a
 * handful of statements whatever its size. Reports on one invoice apply in the order given.
 * `alongside` runs in the same transaction, after the changes: a source's own bookkeeping (a chain
 * watcher's cursor) commits with what it reported, or neither does.
 * Returns every invoice named, after the changes.
 */
export async function observe(
  db: Kysely<Database>,
  reports: readonly Reported[],
  ctx: ObserveContext,
  alongside?: (tx: Transaction<Database>) => Promise<void>,
): Promise<Map<string, InvoiceRow>> {
  const ids = [...new Set(reports.map((r) => r.invoiceId))].sort();
  return db.transaction().execute(async (tx) => {
    const current = ids.length > 0 ? await locked(tx, ids) : new Map<string, Locked>();
    const changes = new Changes(ctx);
    for (const { invoiceId, observation } of reports) {
      const entry = current.get(invoiceId);
      if (entry) changes.apply(entry, observation);
    }
    await changes.save(tx);
    await alongside?.(tx);
    return new Map([...current].map(([id, entry]) => [id, entry.row]));
  });
}

/** One report on one invoice; undefined when there is no such invoice. */
export async function observeOne(
  db: Kysely<Database>,
  invoiceId: string,
  observation: Report,
  ctx: ObserveContext,
): Promise<InvoiceRow | undefined> {
  return (await observe(db, [{ invoiceId, observation }], ctx)).get(invoiceId);
}

/**
 * Moves the invoices whose `due_at` has come (contract §9: expired, or failed when part-paid) in a
 * batch. The rows are claimed with FOR UPDATE SKIP LOCKED, so any number of instances can run this
 * side by side and each invoice is moved exactly once. Returns how many invoices were looked at.
 */
export async function expireDue(db: Kysely<Database>, ctx: ObserveContext, limit: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const rows = await repo.claimDue(tx, ctx.now, limit);
    if (rows.length === 0) return 0;
    const payments = await repo.paymentsOf(
      tx,
      rows.map((r) => r.id),
    );
    const changes = new Changes(ctx);
    for (const row of rows) {
      const own = payments.filter((p) => p.invoice_id === row.id);
      // Only paid and failed invoices are refunded (contract §18); one that falls due is neither yet.
      changes.apply({ row, payments: own, refunds: [] }, { kind: 'tick' });
    }
    await changes.save(tx);
    return rows.length;
  });
}

/** The columns of an invoice the lifecycle reads. */
export type StateColumns = Pick<
  InvoiceRow,
  | 'status'
  | 'token_amount'
  | 'payment_expires_at'
  | 'paid_at'
  | 'tx_hash'
  | 'paid_late'
  | 'failure_reason'
  | 'underpayment_tolerance_percent'
  | 'dust_percent'
>;

/** The lifecycle's view of an invoice row and its payment rows. */
export function stateOf(row: StateColumns, payments: readonly PaymentRow[]): InvoiceState {
  return {
    status: row.status,
    // The lifecycle counts in tokens: the amount at par, or at the invoice's locked rate (pricing.ts).
    amount: money(row.token_amount),
    expiresAt: row.payment_expires_at,
    paidAt: row.paid_at,
    txHash: row.tx_hash,
    paidLate: row.paid_late,
    failureReason: row.failure_reason,
    toleranceBasisPoints: Math.round(Number(row.underpayment_tolerance_percent) * 100),
    dustBasisPoints: Math.round(Number(row.dust_percent) * 100),
    payments: payments
      .map((p) => ({
        txHash: p.tx_hash,
        network: p.network,
        currency: p.currency,
        amount: money(p.amount),
        status: p.status,
        seenAt: p.seen_at,
        confirmedAt: p.confirmed_at,
        reversedAt: p.reversed_at,
        block:
          p.block_number === null || p.block_hash === null
            ? null
            : { number: BigInt(p.block_number), hash: p.block_hash },
      }))
      .sort(seenOrder),
  };
}

interface Locked {
  row: InvoiceRow;
  payments: PaymentRow[];
  /** For the invoice objects of its events (contract §18): a paid invoice whose payment is reversed may have some. */
  refunds: RefundRecord[];
}

async function locked(tx: Transaction<Database>, ids: string[]): Promise<Map<string, Locked>> {
  const rows = await repo.lockInvoices(tx, ids);
  const [payments, refunds] = await Promise.all([repo.paymentsOf(tx, ids), repo.refundsOf(tx, ids)]);
  const current = new Map(
    rows.map((row) => [row.id, { row, payments: [] as PaymentRow[], refunds: [] as RefundRecord[] }]),
  );
  for (const p of payments) current.get(p.invoice_id)?.payments.push(p);
  for (const { invoice_id, ...r } of refunds) current.get(invoice_id)?.refunds.push(r);
  return current;
}

/** What one transaction changes: invoices, payments and events, written together by save(). */
class Changes {
  private readonly invoices = new Map<string, InvoiceRow>();
  private readonly payments = new Map<string, PaymentRow>();
  private readonly events: OutboxEvent[] = [];

  constructor(private readonly ctx: ObserveContext) {}

  /** Applies one report to a locked invoice, and keeps `entry` current for the next report on it. */
  apply(entry: Locked, report: Report): void {
    const state = stateOf(entry.row, entry.payments);
    const observation = typeof report === 'function' ? report(state) : report;
    if (!observation) return;
    const outcome = transition(state, observation, this.ctx.now);
    if (!outcome.changed) return;
    // The payment observed, and any other the transition changed (dust joining a payment that
    // completes the invoice): every payment object it did not keep as it was.
    const before = new Set(state.payments);
    for (const payment of outcome.state.payments) {
      if (before.has(payment)) continue;
      const saved = toPaymentRow(entry.row, payment);
      const at = entry.payments.findIndex(
        (p) => p.tx_hash === saved.tx_hash && p.currency === saved.currency,
      );
      if (at >= 0) entry.payments[at] = saved;
      else entry.payments.push(saved);
      this.payments.set(`${entry.row.id} ${saved.tx_hash} ${saved.currency}`, saved);
    }
    for (const e of outcome.emitted) this.events.push(this.toEvent(entry.row, e, entry.refunds));
    entry.row = toRow(entry.row, outcome.state, this.ctx.now);
    this.invoices.set(entry.row.id, entry.row);
  }

  async save(tx: Transaction<Database>): Promise<void> {
    await repo.savePayments(tx, [...this.payments.values()]);
    await repo.saveInvoices(tx, [...this.invoices.values()]);
    await insertEvents(tx, this.events);
  }

  private toEvent(row: InvoiceRow, e: Emitted, refunds: readonly RefundRecord[]): OutboxEvent {
    const data: Record<string, unknown> = {
      invoice: toInvoice(
        toRow(row, e.state, this.ctx.now),
        this.ctx.publicBaseUrl,
        e.state.payments.map((p) => toPaymentRow(row, p)),
        refunds,
      ),
      previous_status: e.previousStatus,
    };
    if (e.payment) data.payment = paymentView(e.payment);
    return newEvent(row.project_id, row.id, e.type, data, this.ctx.now, row.livemode);
  }
}

function toPaymentRow(invoice: InvoiceRow, p: Payment): PaymentRow {
  return {
    invoice_id: invoice.id,
    tx_hash: p.txHash,
    network: p.network,
    currency: p.currency,
    amount: formatMoney(p.amount),
    status: p.status,
    seen_at: p.seenAt,
    confirmed_at: p.confirmedAt,
    reversed_at: p.reversedAt,
    block_number: p.block?.number.toString() ?? null,
    block_hash: p.block?.hash ?? null,
  };
}

function toRow(row: InvoiceRow, s: InvoiceState, now: Date): InvoiceRow {
  const { dueAt, openUntil } = schedule(s);
  return {
    ...row,
    ...methodInUse(row, s),
    status: s.status,
    paid_at: s.paidAt,
    tx_hash: s.txHash,
    paid_late: s.paidLate,
    failure_reason: s.failureReason,
    amount_paid: inCurrency(row, confirmedTotal(s)),
    amount_after_close: inCurrency(row, afterCloseTotal(s)),
    due_at: dueAt,
    open_until: openUntil,
    updated_at: now,
  };
}

/** Tokens as the invoice shows them: in its currency, at its locked rate. */
const inCurrency = (row: InvoiceRow, tokens: Money) =>
  formatMoney(inInvoiceCurrency(tokens, row.rate, currencyDecimals(row.currency)));

/**
 * An invoice of several methods has no `network` and `pay_address` until its first payment towards it
 * shows which method the payer chose; from then on, that one's (contract §15). A payment it only
 * records (unaccepted, dust, after close) chooses nothing.
 */
function methodInUse(row: InvoiceRow, s: InvoiceState): Pick<InvoiceRow, 'network' | 'pay_address'> {
  if (row.network !== null) return { network: row.network, pay_address: row.pay_address };
  const first = s.payments.find(towardsInvoice);
  const method = first && row.payment_methods.find((m) => m.network === first.network);
  return method
    ? { network: method.network, pay_address: method.pay_address }
    : { network: null, pay_address: null };
}

function paymentView(p: Payment) {
  return {
    tx_hash: p.txHash,
    network: p.network,
    currency: p.currency,
    amount: formatMoney(p.amount),
    // Final: a confirmed payment, or money after close once buried.
    confirmed: p.confirmedAt !== null && p.status !== 'reversed',
  };
}
