import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { hasIdShape } from '../ids.js';
import type { InvoiceStatus } from '../invoices/status.js';
import { formatMoney, money } from '../money/money.js';
import { redeliver } from '../webhooks/service.js';
import * as repo from './invoices.repository.js';

export const PAGE_SIZE = 50;

/** `1763890000000-inv_…`: the created_at (ms) and id of a row, the keyset position in a URL. */
export function encodeCursor(row: { created_at: Date; id: string }): string {
  return `${row.created_at.getTime()}-${row.id}`;
}

export function decodeCursor(value: string | undefined, field: string): repo.Cursor | undefined {
  if (!value) return undefined;
  const m = /^(\d{1,15})-(inv_[A-Za-z0-9]{1,60})$/.exec(value);
  if (!m) {
    throw ApiError.validation([
      { in: 'query', field, rule: 'cursor', message: 'This page link is broken; go back to the first page' },
    ]);
  }
  return { createdAt: new Date(Number(m[1])), id: m[2] as string };
}

export interface ListInput {
  status?: InvoiceStatus | undefined;
  q?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

/** One page and the cursors of its neighbours (one extra row tells whether there is a next page). */
export async function invoicePage(db: Kysely<Database>, projectId: string, input: ListInput) {
  const query = { projectId, status: input.status, search: input.q?.trim() || undefined };
  const after = decodeCursor(input.after, 'after');
  const before = decodeCursor(input.before, 'before');
  const rows = await repo.pageOfInvoices(db, query, { after, before, limit: PAGE_SIZE + 1 });
  const more = rows.length > PAGE_SIZE;
  const page = rows.slice(0, PAGE_SIZE);
  if (before) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  const hasNext = before ? true : more;
  const hasPrev = before ? more : Boolean(after);
  return {
    rows: page,
    next: hasNext && last ? encodeCursor(last) : undefined,
    prev: hasPrev && first ? encodeCursor(first) : undefined,
  };
}

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
            amount: formatMoney(money(r.amount)),
            amount_paid: formatMoney(money(r.amount_paid)),
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

export async function invoiceDetail(db: Kysely<Database>, projectId: string, id: string) {
  const invoice = hasIdShape(id, 'inv') ? await repo.findProjectInvoice(db, projectId, id) : undefined;
  if (!invoice) throw ApiError.notFound('No invoice with this id');
  const [payments, events] = await Promise.all([repo.invoicePayments(db, id), repo.invoiceEvents(db, id)]);
  const deliveries = await repo.eventDeliveries(
    db,
    events.map((e) => e.id),
  );
  return { invoice, payments, events, deliveries };
}

/** "Resend": the webhooks' own redelivery, for an event of this invoice only. */
export async function resendEvent(
  db: Kysely<Database>,
  projectId: string,
  invoiceId: string,
  eventId: string,
  now: Date,
) {
  const event = await repo.findInvoiceEvent(db, projectId, invoiceId, eventId);
  if (!event) throw ApiError.notFound('No event with this id');
  return redeliver(db, event.id, now);
}
