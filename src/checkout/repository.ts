import type { Kysely } from 'kysely';
import { compileOnce, param } from '../db/compiled.js';
import type { Database } from '../db/schema.js';

// Polled every two seconds by every open payment page: compiled once, sent as a prepared statement.
const findQuery = compileOnce((db) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    // Only what the payer may see (contract §12): no metadata, order id, project id or account.
    .select([
      'i.id',
      'i.status',
      'i.amount',
      'i.amount_paid',
      'i.currency',
      'i.network',
      'i.pay_address',
      'i.payment_expires_at',
      'i.paid_at',
      'i.failure_reason',
      'i.awaiting_confirmation',
      'i.updated_at',
      'p.name as project_name',
    ])
    .where('i.id', '=', param(1)),
);

export type CheckoutRow = Awaited<ReturnType<typeof findQuery>>[number];

/** The invoice as the payment page shows it, with its project's name; undefined when there is none. */
export async function findCheckout(db: Kysely<Database>, id: string): Promise<CheckoutRow | undefined> {
  return (await findQuery(db, [id]))[0];
}
