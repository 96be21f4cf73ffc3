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
  return db.transaction().execute(async (tx) => {
    const row = await repo.lockInvoice(tx, invoiceId);
    if (!row) return undefined;
    const payments = await repo.paymentsOf(tx, [invoiceId]);
    const changes = new Changes(now, publicBaseUrl);
    const next = changes.apply(row, payments, observation);
    await changes.save(tx);
    return next;
  });
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

/** What one transaction changes: invoices, payments and events, written together by save(). */
class Changes {
  private readonly invoices: InvoiceRow[] = [];
  private readonly payments: Array<{ invoiceId: string; payment: Payment }> = [];
  private readonly events: OutboxEvent[] = [];

  constructor(
    private readonly now: Date,
    private readonly publicBaseUrl: string,
  ) {}

  apply(row: InvoiceRow, payments: PaymentRow[], observation: Observation): InvoiceRow {
    const outcome = transition(toState(row, payments), observation, this.now);
    if (!outcome.changed) return row;
    if (outcome.payment) this.payments.push({ invoiceId: row.id, payment: outcome.payment });
    const next = toRow(row, outcome.state, this.now);
    this.invoices.push(next);
    for (const e of outcome.emitted) this.events.push(toEvent(row, e, this.now, this.publicBaseUrl));
    return next;
  }

  async save(tx: Transaction<Database>): Promise<void> {
    for (const { invoiceId, payment } of this.payments) await repo.savePayment(tx, invoiceId, payment);
    await repo.saveInvoices(tx, this.invoices);
    await writeEvents(tx, this.events, this.now);
  }
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
    payments: payments
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
