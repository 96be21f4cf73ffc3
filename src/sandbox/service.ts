import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { outstanding, samePayment } from '../invoices/lifecycle.js';
import { type ObserveContext, observe, observeOne, type Report, type Reported } from '../invoices/observe.js';
import type { InvoiceWithPayments } from '../invoices/repository.js';
import { findInvoiceById } from '../invoices/service.js';
import { type Money, money } from '../money/money.js';
import { mayPay } from '../networks/livemode.js';
import { SANDBOX } from '../networks/network.js';

export interface SimulatedPayment {
  /** A decimal string (validated by the route's `payment-amount` format); default: what is still due. */
  amount?: string | undefined;
  confirmed?: boolean | undefined;
  tx_hash?: string | undefined;
  /** Which sandbox token the payment is made in; default: the invoice's first sandbox method's. */
  currency?: string | undefined;
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
): Promise<InvoiceWithPayments> {
  const invoice = await sandboxInvoice(db, invoiceId);
  const methods = invoice.payment_methods.filter((m) => m.network === SANDBOX);
  // A sandbox token the invoice does not accept is recorded as `unaccepted`, as a chain watcher records
  // a known token it does not accept (contract §15): how a merchant tests its handling of
  // invoice.payment_unaccepted without a chain.
  const currency = input.currency ?? (methods[0] as { currency: string }).currency;
  const accepted = methods.some((m) => m.currency === currency);
  const txHash = input.tx_hash ?? `0x${randomBytes(32).toString('hex')}`;
  const confirmed = input.confirmed ?? true;
  const pay = (amount: Money) => ({
    kind: 'payment' as const,
    txHash,
    network: SANDBOX,
    currency,
    amount,
    confirmed,
    accepted,
  });
  const report: Report =
    input.amount !== undefined
      ? pay(money(input.amount))
      : (state) => {
          // The same transaction again (confirming a payment seen before) is reported as it was.
          const same = state.payments.find((p) => samePayment(p, { txHash, currency }));
          if (same) return pay(same.amount);
          // Not accepted, it pays nothing: the amount still due is what a payer would have sent.
          const due = accepted ? outstanding(state) : state.amount;
          return due > 0n ? pay(due) : undefined;
        };
  await observeOne(db, invoice.id, report, ctx);
  return reread(db, invoice);
}

/** Drops a simulated payment that was seen, as a chain reorganisation would. */
export async function simulateReversal(
  db: Kysely<Database>,
  invoiceId: string,
  txHash: string,
  ctx: ObserveContext,
): Promise<InvoiceWithPayments> {
  const invoice = await sandboxInvoice(db, invoiceId);
  // Every token the transaction carried to the invoice is dropped with it.
  const reversals: Reported[] = invoice.payments
    .filter((p) => p.tx_hash === txHash)
    .map((p) => ({ invoiceId: invoice.id, observation: { kind: 'reversal', txHash, currency: p.currency } }));
  if (reversals.length > 0) await observe(db, reversals, ctx);
  return reread(db, invoice);
}

async function reread(db: Kysely<Database>, invoice: InvoiceWithPayments): Promise<InvoiceWithPayments> {
  return (await findInvoiceById(db, invoice.id)) ?? invoice;
}

async function sandboxInvoice(db: Kysely<Database>, id: string): Promise<InvoiceWithPayments> {
  const invoice = await findInvoiceById(db, id);
  if (!invoice) throw ApiError.notFound('No invoice with this id');
  // Test money never reaches a live invoice (contract §21), even one made before the rule that still
  // lists a sandbox method: checked first, before anything about its methods.
  if (!mayPay({ test: true }, invoice)) {
    throw ApiError.validation([
      {
        in: 'path',
        field: 'id',
        rule: 'live_invoice',
        message:
          'Payments can only be simulated on test invoices (livemode: false); this invoice is live and only real payments on a live network pay it',
      },
    ]);
  }
  if (!invoice.payment_methods.some((m) => m.network === SANDBOX)) {
    throw ApiError.validation([
      {
        in: 'path',
        field: 'id',
        rule: 'sandbox_only',
        message: `Payments can only be simulated on the sandbox network; this invoice accepts ${[...new Set(invoice.payment_methods.map((m) => m.network))].join(', ')}`,
      },
    ]);
  }
  return invoice;
}
