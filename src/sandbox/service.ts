import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import type { InvoiceRow } from '../invoices/invoice.table.js';
import { outstanding } from '../invoices/lifecycle.js';
import { type ObserveContext, observeOne, type Report } from '../invoices/observe.js';
import { findInvoiceById } from '../invoices/service.js';
import { type Money, money } from '../money/money.js';
import { SANDBOX } from '../networks/network.js';

export interface SimulatedPayment {
  /** A decimal string (validated by the route's `payment-amount` format); default: what is still due. */
  amount?: string | undefined;
  confirmed?: boolean | undefined;
  tx_hash?: string | undefined;
}

/**
 * A hand-made payment on the `sandbox` network (contract §11): the sandbox is a payment source like a
 * chain watcher, and reports through the same observe(). Without an amount it pays what is still due
 * (lifecycle.outstanding), decided under the invoice's lock: two clicks at once pay it once, and
 * nothing is paid when nothing is due (a payment still confirming counts as on its way).
 */
export async function simulatePayment(
  db: Kysely<Database>,
  invoiceId: string,
  input: SimulatedPayment,
  ctx: ObserveContext,
): Promise<InvoiceRow> {
  const invoice = await sandboxInvoice(db, invoiceId);
  const txHash = input.tx_hash ?? `0x${randomBytes(32).toString('hex')}`;
  const confirmed = input.confirmed ?? true;
  const pay = (amount: Money) => ({ kind: 'payment' as const, txHash, amount, confirmed });
  const report: Report =
    input.amount !== undefined
      ? pay(money(input.amount))
      : (state) => {
          // The same transaction again (confirming a payment seen before) is reported as it was.
          const same = state.payments.find((p) => p.txHash === txHash);
          if (same) return pay(same.amount);
          const due = outstanding(state);
          return due > 0n ? pay(due) : undefined;
        };
  return (await observeOne(db, invoice.id, report, ctx)) ?? invoice;
}

/** Drops a simulated payment that was seen, as a chain reorganisation would. */
export async function simulateReversal(
  db: Kysely<Database>,
  invoiceId: string,
  txHash: string,
  ctx: ObserveContext,
): Promise<InvoiceRow> {
  const invoice = await sandboxInvoice(db, invoiceId);
  return (await observeOne(db, invoice.id, { kind: 'reversal', txHash }, ctx)) ?? invoice;
}

async function sandboxInvoice(db: Kysely<Database>, id: string): Promise<InvoiceRow> {
  const invoice = await findInvoiceById(db, id);
  if (!invoice) throw ApiError.notFound('No invoice with this id');
  if (invoice.network !== SANDBOX) {
    throw ApiError.validation([
      {
        in: 'path',
        field: 'id',
        rule: 'sandbox_only',
        message: `Payments can only be simulated on the sandbox network; this invoice is on ${invoice.network}`,
      },
    ]);
  }
  return invoice;
}
