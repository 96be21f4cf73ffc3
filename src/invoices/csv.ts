import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { formatAmount, money } from '../money/money.js';
import type { ListInput } from './browse.js';
import * as repo from './browse.repository.js';
import { formatInCurrency } from './pricing.js';

const CSV_COLUMNS = [
  'id',
  'order_id',
  'status',
  'amount',
  'amount_paid',
  'currency',
  'network',
  'pay_address',
  'tx_hash',
  'paid_late',
  'failure_reason',
  'created_at',
  'payment_expires_at',
  'paid_at',
  // The rate an invoice priced in another currency locked (contract §19); empty at par.
  'rate_pair',
  'rate_value',
  'rate_source',
  'rate_fetched_at',
  // What was refunded (contract §18), in the invoice currency. Last, so that a sheet or script reading
  // the columns by position before refunds existed reads the same columns.
  'amount_refunded',
] as const;

/**
 * A cell as RFC 4180 text. A merchant's order id could start with "=" or "+": a spreadsheet would run
 * it as a formula (CSV injection), so such a cell is prefixed with an apostrophe, as OWASP advises.
 */
export function csvCell(value: unknown): string {
  let text =
    value instanceof Date ? value.toISOString() : value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const BATCH = 1000;

/**
 * The filtered invoices as CSV, read in keyset batches of 1,000 as the client takes them: memory holds
 * one batch, whatever the number of invoices, and a client that stops reading stops the queries.
 */
export function invoiceCsv(
  db: Kysely<Database>,
  projectId: string,
  input: Pick<ListInput, 'status' | 'q'>,
): Readable {
  const query = { projectId, status: input.status, search: input.q?.trim() || undefined };
  async function* lines() {
    yield `${CSV_COLUMNS.join(',')}\r\n`;
    let after: repo.Cursor | undefined;
    for (;;) {
      const rows = await repo.pageOfInvoices(db, query, { after, limit: BATCH });
      if (rows.length === 0) return;
      yield rows
        .map((r) => {
          const shaped = {
            ...r,
            amount: formatAmount(money(r.amount), r.currency),
            amount_paid: formatInCurrency(r.amount_paid, r.currency, r.rate !== null),
            amount_refunded: formatInCurrency(r.amount_refunded, r.currency, r.rate !== null),
            rate_pair: r.rate?.pair,
            rate_value: r.rate?.value,
            rate_source: r.rate?.source,
            rate_fetched_at: r.rate?.fetched_at,
          };
          return `${CSV_COLUMNS.map((c) => csvCell(shaped[c])).join(',')}\r\n`;
        })
        .join('');
      if (rows.length < BATCH) return;
      const last = rows[rows.length - 1] as repo.InvoiceListRow;
      after = { createdAt: last.created_at, id: last.id };
    }
  }
  return Readable.from(lines());
}
