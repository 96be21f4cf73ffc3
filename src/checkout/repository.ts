import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type Placeholders, statement } from '../db/statement.js';

// Polled every two seconds by every open payment page: both are named prepared statements.
const findStatement = statement('checkout_find', (p: Placeholders<{ id: string }>, db) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('projects as p', 'p.id', 'i.project_id')
    .leftJoin('project_logos as l', 'l.project_id', 'p.id')
    // Only what the payer may see (contract §12): no metadata, order id, project id or account.
    .select([
      'i.id',
      'i.status',
      'i.amount',
      'i.amount_paid',
      'i.currency',
      'i.rate',
      'i.token_amount',
      'i.network',
      'i.pay_address',
      'i.payment_methods',
      'i.solana_reference',
      'i.underpayment_tolerance_percent',
      'i.dust_percent',
      'i.livemode',
      'i.payment_expires_at',
      'i.paid_at',
      'i.tx_hash',
      'i.paid_late',
      'i.failure_reason',
      'i.updated_at',
      // Shown only as links on the page, never in /status (contract §12).
      'i.redirect_url',
      'i.cancel_url',
      // The merchant's own words about the purchase, shown under its name (purchase.ts).
      'i.order_id',
      'i.description',
      'p.name as project_name',
      'p.brand_color',
      'l.hash as logo_hash',
      'l.width as logo_width',
      'l.height as logo_height',
    ])
    .where('i.id', '=', p.id),
);

const paymentsStatement = statement('checkout_payments', (p: Placeholders<{ id: string }>, db) =>
  db.selectFrom('payments').selectAll().where('invoice_id', '=', p.id),
);

export type CheckoutRow = Awaited<ReturnType<typeof findStatement>>[number];

/** The invoice as the payment page shows it, its project's name and its payments; undefined when none. */
export async function findCheckout(db: Kysely<Database>, id: string) {
  const [rows, payments] = await Promise.all([findStatement(db, { id }), paymentsStatement(db, { id })]);
  const row = rows[0];
  return row && { row, payments };
}
