import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { hasIdShape } from '../ids.js';
import * as repo from './browse.repository.js';
import type { InvoiceStatus } from './status.js';

export type { InvoiceListRow } from './browse.repository.js';

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

/** One invoice of the project, with its payments and its events; NOT_FOUND for any other id. */
export async function invoiceDetail(db: Kysely<Database>, projectId: string, id: string) {
  const invoice = hasIdShape(id, 'inv') ? await repo.findProjectInvoice(db, projectId, id) : undefined;
  if (!invoice) throw ApiError.notFound('No invoice with this id');
  const [payments, events] = await Promise.all([repo.invoicePayments(db, id), repo.invoiceEvents(db, id)]);
  return { invoice, payments, events };
}

/** An event of this invoice of this project; NOT_FOUND for any other. */
export async function findInvoiceEvent(
  db: Kysely<Database>,
  projectId: string,
  invoiceId: string,
  eventId: string,
) {
  const event = await repo.findInvoiceEvent(db, projectId, invoiceId, eventId);
  if (!event) throw ApiError.notFound('No event with this id');
  return event;
}
