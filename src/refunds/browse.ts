import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { formatInCurrency } from '../invoices/pricing.js';
import { formatMoney } from '../money/money.js';
import type { NetworkRegistry } from '../networks/network.js';
import { refundable } from './amounts.js';
import * as repo from './browse.repository.js';
import { toRefund } from './refund.js';
import type { RefundRow } from './refund.table.js';
import { keyOf, notFoundFor, type Requester } from './requester.js';

// What the API and the dashboard read of refunds; nothing here changes one.

/** An invoice's refunds, oldest first; NOT_FOUND for an invoice of another project. */
export async function listRefunds(db: Kysely<Database>, who: Requester, invoiceId: string) {
  const invoice = await repo.invoiceExists(db, who.projectId, invoiceId, keyOf(who));
  if (!invoice) {
    await notFoundFor(who);
    throw ApiError.notFound('No invoice with this id');
  }
  const rows = await repo.invoiceRefunds(db, who.projectId, invoiceId);
  return rows.map((r) => toRefund(r, invoice.rate !== null));
}

/** One refund of the project as stored; NOT_FOUND for any other id. */
export async function findRefund(db: Kysely<Database>, projectId: string, id: string): Promise<RefundRow> {
  const row = await repo.findRefund(db, projectId, id);
  if (!row) throw ApiError.notFound('No refund with this id');
  return row;
}

/** What is left to refund of an invoice, written as its refunds' amounts are. */
export function leftToRefund(invoice: {
  amount_paid: string;
  amount_after_close: string;
  amount_refunded: string;
  currency: string;
  rate: unknown;
}) {
  return formatInCurrency(formatMoney(refundable(invoice)), invoice.currency, invoice.rate !== null);
}

/** An invoice's refunds as stored (the dashboard shows the token and its amount too), oldest first. */
export function refundsOfInvoice(db: Kysely<Database>, projectId: string, invoiceId: string) {
  return repo.invoiceRefunds(db, projectId, invoiceId);
}

/** The refunds waiting for the merchant's wallet (ready) or on their way (sent), newest first. */
export function waitingRefunds(db: Kysely<Database>, projectId: string, limit = 200) {
  return repo.waitingRefunds(db, projectId, limit);
}

/** The networks the project has ready refunds on, with how many, and whether a Safe can pay them (EVM). */
export async function readyNetworks(db: Kysely<Database>, projectId: string, networks: NetworkRegistry) {
  const counts = await repo.readyCounts(db, projectId);
  return counts.map((c) => ({ ...c, safe: networks.get(c.network)?.family === 'evm' }));
}

export type ReadyNetwork = Awaited<ReturnType<typeof readyNetworks>>[number];
