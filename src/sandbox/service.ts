import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import type { InvoiceRow } from '../invoices/invoice.table.js';
import { toUnits } from '../invoices/money.js';
import { observe } from '../invoices/transition.js';

export interface SimulatedPayment {
  amount?: string | undefined;
  confirmed?: boolean | undefined;
  tx_hash?: string | undefined;
}

/**
 * A hand-made payment on the `sandbox` network (contract §11). It enters the lifecycle exactly as a
 * chain watcher's observation does: through observe().
 */
export async function simulatePayment(
  db: Kysely<Database>,
  invoiceId: string,
  input: SimulatedPayment,
  now: Date,
  publicBaseUrl: string,
): Promise<InvoiceRow> {
  const invoice = await sandboxInvoice(db, invoiceId);
  // Default: whatever is still due (or the whole amount once nothing is due, to simulate an over-payment).
  const due = toUnits(invoice.amount) - toUnits(invoice.amount_paid);
  const amount =
    input.amount !== undefined ? toUnits(input.amount) : due > 0n ? due : toUnits(invoice.amount);
  const txHash = input.tx_hash ?? `0x${randomBytes(32).toString('hex')}`;
  const observation = { kind: 'payment' as const, txHash, amount, confirmed: input.confirmed ?? true };
  return (await observe(db, invoice.id, observation, now, publicBaseUrl)) as InvoiceRow;
}

/** Drops a simulated payment that was seen, as a chain reorganisation would. */
export async function simulateReversal(
  db: Kysely<Database>,
  invoiceId: string,
  txHash: string,
  now: Date,
  publicBaseUrl: string,
): Promise<InvoiceRow> {
  const invoice = await sandboxInvoice(db, invoiceId);
  return (await observe(db, invoice.id, { kind: 'reversal', txHash }, now, publicBaseUrl)) as InvoiceRow;
}

async function sandboxInvoice(db: Kysely<Database>, id: string) {
  const invoice = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();
  if (!invoice) throw ApiError.notFound('No invoice with this id');
  if (invoice.network !== 'sandbox') {
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
