import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { newEvent, type OutboxEvent, writeEvents } from '../webhooks/outbox.js';
import { toInvoice } from './invoice.js';
import type { InvoiceRow } from './invoice.table.js';
import {
  awaitingConfirmation,
  confirmedTotal,
  type Emitted,
  type InvoiceState,
  type Observation,
  type Payment,
  transition,
} from './lifecycle.js';
import { fromUnits, toUnits } from './money.js';
import type { PaymentRow } from './payment.table.js';
import * as repo from './transition.repository.js';

/**
 * The one code path that changes an invoice's status (contract §5): lock the row, run the pure state
 * machine, write the new state, the payment and the resulting events (the outbox) in one transaction.
 * Every source of change (the sandbox simulator, the expiry worker, chain watchers) comes through here.
 */
export async function observe(
  db: Kysely<Database>,
  invoiceId: string,
  observation: Observation,
  now: Date,
  publicBaseUrl: string,
): Promise<InvoiceRow | undefined> {
  const rows = await observeMany(db, [{ invoiceId, observation }], now, publicBaseUrl);
  return rows.get(invoiceId);
}

/**
 * Moves overdue invoices (contract §9: expired, or failed when part-paid) in batches. The rows are
 * claimed with FOR UPDATE SKIP LOCKED, so any number of instances can run this side by side and each
 * invoice is moved exactly once. Returns how many invoices were moved.
 */
export async function expireDue(
  db: Kysely<Database>,
  now: Date,
  limit: number,
  publicBaseUrl: string,
): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const rows = await repo.claimOverdue(tx, now, limit);
    if (rows.length === 0) return 0;
    const payments = await repo.paymentsOf(
      tx,
      rows.map((r) => r.id),
    );
    const changes = new Changes(now, publicBaseUrl);
    for (const row of rows) {
      changes.apply(
        row,
        payments.filter((p) => p.invoice_id === row.id),
        { kind: 'tick' },
      );
    }
    await changes.save(tx);
    return rows.length;
  });
}

/**
 * Several observations in one transaction (a chain watcher's block of transfers): the invoices are
 * locked in id order, so two batches over overlapping invoices can never deadlock, and a batch costs
 * a handful of statements whatever its size. Observations of one invoice apply in the order given.
 */
export async function observeMany(
  db: Kysely<Database>,
  items: ReadonlyArray<{ invoiceId: string; observation: Observation }>,
  now: Date,
  publicBaseUrl: string,
): Promise<Map<string, InvoiceRow>> {
  if (items.length === 0) return new Map();
  const ids = [...new Set(items.map((i) => i.invoiceId))].sort();
  return db.transaction().execute(async (tx) => {
    const rows = await repo.lockInvoices(tx, ids);
    const payments = await repo.paymentsOf(tx, ids);
    const current = new Map(rows.map((r) => [r.id, { row: r, payments: [] as PaymentRow[] }]));
    for (const p of payments) current.get(p.invoice_id)?.payments.push(p);
    const changes = new Changes(now, publicBaseUrl);
    for (const { invoiceId, observation } of items) {
      const entry = current.get(invoiceId);
      if (entry) entry.row = changes.apply(entry.row, entry.payments, observation);
    }
    await changes.save(tx);
    return new Map([...current].map(([id, entry]) => [id, entry.row]));
  });
}

/** What one transaction changes: invoices, payments and events, written together by save(). */
class Changes {
  private readonly invoices = new Map<string, InvoiceRow>();
  private readonly payments = new Map<string, PaymentRow>();
  private readonly events: OutboxEvent[] = [];

  constructor(
    private readonly now: Date,
    private readonly publicBaseUrl: string,
  ) {}

  /** Applies one observation; `payments` (the invoice's rows) is kept up to date for the next one. */
  apply(row: InvoiceRow, payments: PaymentRow[], observation: Observation): InvoiceRow {
    const outcome = transition(toState(row, payments), observation, this.now);
    if (!outcome.changed) return row;
    if (outcome.payment) {
      const saved = toPaymentRow(row.id, outcome.payment);
      const at = payments.findIndex((p) => p.tx_hash === saved.tx_hash);
      if (at >= 0) payments[at] = saved;
      else payments.push(saved);
      this.payments.set(`${row.id} ${saved.tx_hash}`, saved);
    }
    const next = toRow(row, outcome.state, this.now);
    this.invoices.set(row.id, next);
    for (const e of outcome.emitted) this.events.push(toEvent(row, e, this.now, this.publicBaseUrl));
    return next;
  }

  async save(tx: Transaction<Database>): Promise<void> {
    await repo.savePayments(tx, [...this.payments.values()]);
    await repo.saveInvoices(tx, [...this.invoices.values()]);
    await writeEvents(tx, this.events, this.now);
  }
}

function toPaymentRow(invoiceId: string, p: Payment): PaymentRow {
  return {
    invoice_id: invoiceId,
    tx_hash: p.txHash,
    amount: fromUnits(p.amount),
    status: p.status,
    seen_at: p.seenAt,
    confirmed_at: p.confirmedAt,
    reversed_at: p.reversedAt,
  };
}

function toState(row: InvoiceRow, payments: PaymentRow[]): InvoiceState {
  return {
    status: row.status,
    amount: toUnits(row.amount),
    expiresAt: row.payment_expires_at,
    paidAt: row.paid_at,
    txHash: row.tx_hash,
    paidLate: row.paid_late,
    failureReason: row.failure_reason,
    payments: [...payments]
      .sort((a, b) => a.seen_at.getTime() - b.seen_at.getTime())
      .map((p) => ({
        txHash: p.tx_hash,
        amount: toUnits(p.amount),
        status: p.status,
        seenAt: p.seen_at,
        confirmedAt: p.confirmed_at,
        reversedAt: p.reversed_at,
      })),
  };
}

function toRow(row: InvoiceRow, s: InvoiceState, now: Date): InvoiceRow {
  return {
    ...row,
    status: s.status,
    paid_at: s.paidAt,
    tx_hash: s.txHash,
    paid_late: s.paidLate,
    failure_reason: s.failureReason,
    amount_paid: fromUnits(confirmedTotal(s)),
    awaiting_confirmation: awaitingConfirmation(s),
    updated_at: now,
  };
}

function toEvent(row: InvoiceRow, e: Emitted, now: Date, publicBaseUrl: string): OutboxEvent {
  const data: Record<string, unknown> = {
    invoice: toInvoice(toRow(row, e.state, now), publicBaseUrl),
    previous_status: e.previousStatus,
  };
  if (e.payment) data.payment = paymentView(e.payment);
  return newEvent(row.project_id, row.id, e.type, data, now);
}

function paymentView(p: Payment) {
  return { tx_hash: p.txHash, amount: fromUnits(p.amount), confirmed: p.status === 'confirmed' };
}
