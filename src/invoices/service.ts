import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { offsetOf, pagination } from '../http/pagination.js';
import { newId } from '../ids.js';
import type { Principal } from '../merchants/authenticate.js';
import { formatMoney, parseInvoiceAmount } from '../money/money.js';
import { newDepositAddress } from '../networks/deposit-address.js';
import type { NetworkRegistry } from '../networks/network.js';
import { newEvent } from './events.js';
import { requestFingerprint } from './idempotency.js';
import { toInvoice } from './invoice.js';
import type { InvoiceRow } from './invoice.table.js';
import { opened, schedule } from './lifecycle.js';
import * as repo from './repository.js';
import type { InvoiceStatus } from './status.js';

export interface NewInvoiceInput {
  amount: string;
  order_id?: string | null | undefined;
  metadata?: Record<string, string> | null | undefined;
  redirect_url?: string | null | undefined;
  cancel_url?: string | null | undefined;
}

export interface Created {
  invoice: InvoiceRow;
  /** True when an earlier request with the same Idempotency-Key made it. */
  replayed: boolean;
}

export interface InvoiceContext {
  now: Date;
  publicBaseUrl: string;
  /** Where deposit addresses come from: the network's family writes them. */
  networks: NetworkRegistry;
}

/** Creates a pending invoice on the caller's project; currency, network and expiry come from the project. */
export async function createInvoice(
  db: Kysely<Database>,
  principal: Principal,
  input: NewInvoiceInput,
  idempotencyKey: string | undefined,
  ctx: InvoiceContext,
): Promise<Created> {
  const amount = parseInvoiceAmount(input.amount);
  if (!amount.ok) {
    throw ApiError.validation([{ in: 'body', field: 'amount', rule: amount.rule, message: amount.message }]);
  }
  const id = newId('inv');
  const expiresAt = new Date(ctx.now.getTime() + principal.invoiceTtlSeconds * 1000);
  const { dueAt, openUntil } = schedule(opened(amount.value, expiresAt));
  const project = { id: principal.projectId, network: principal.network };
  const deposit = await newDepositAddress(db, ctx.networks, project, id);
  const invoice: InvoiceRow = {
    id,
    project_id: principal.projectId,
    status: 'pending',
    amount: formatMoney(amount.value),
    currency: principal.currency,
    network: principal.network,
    order_id: input.order_id ?? null,
    metadata: input.metadata ?? {},
    redirect_url: input.redirect_url ?? null,
    cancel_url: input.cancel_url ?? null,
    payment_expires_at: expiresAt,
    paid_at: null,
    tx_hash: null,
    pay_address: deposit.address,
    address_index: deposit.index,
    amount_paid: '0.00',
    paid_late: false,
    failure_reason: null,
    due_at: dueAt,
    open_until: openUntil,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const created = newEvent(
    invoice.project_id,
    id,
    'invoice.created',
    { invoice: toInvoice(invoice, ctx.publicBaseUrl), previous_status: null },
    ctx.now,
  );
  const claim =
    idempotencyKey === undefined
      ? undefined
      : {
          key: idempotencyKey,
          fingerprint: requestFingerprint({
            amount: invoice.amount,
            order_id: input.order_id ?? undefined,
            metadata: invoice.metadata,
            redirect_url: invoice.redirect_url,
            cancel_url: invoice.cancel_url,
          }),
        };

  // Nothing written means the API key was not live in the statement's snapshot, or the idempotency
  // key was taken. confirm() answers the first with its auth error; the second replays. A second try
  // settles the two rare races in between: a key live again (a project re-activated meanwhile), or a
  // claim purged between our insert and our read.
  for (let attempt = 1; attempt <= 2; attempt++) {
    const inserted = await repo.insertInvoice(db, { invoice, created, keyId: principal.keyId, claim });
    if (inserted) return { invoice: inserted, replayed: false };
    await principal.confirm();
    if (!claim) continue;
    const existing = await repo.findClaimedInvoice(db, principal.projectId, claim.key);
    if (!existing) continue;
    if (existing.request_hash !== claim.fingerprint) throw reusedKey();
    const { request_hash: _, ...replayed } = existing;
    return { invoice: replayed, replayed: true };
  }
  throw new Error('invoice insert wrote nothing for a live key');
}

function reusedKey(): ApiError {
  return ApiError.validation([
    {
      in: 'header',
      field: 'Idempotency-Key',
      rule: 'reused_with_different_request',
      message:
        'This Idempotency-Key was already used with a different request; use a new key for a new invoice',
    },
  ]);
}

export async function getInvoice(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
): Promise<InvoiceRow> {
  // A malformed id, an unknown one and another project's all take the same query and answer alike
  // (contract §4), so neither the body nor the timing tells them apart.
  const row = await repo.findInvoice(db, principal.projectId, id, principal.keyId);
  if (!row) {
    await principal.confirm(); // the guard also fails for a key revoked since it was cached
    throw ApiError.notFound('No invoice with this id');
  }
  return row;
}

/** Any invoice by id, whatever its project: for the operator's calls (sandbox payments). */
export function findInvoiceById(db: Kysely<Database>, id: string): Promise<InvoiceRow | undefined> {
  return repo.findInvoiceById(db, id);
}

export interface ListQuery {
  status?: string | undefined;
  order_id?: string | undefined;
  limit: number;
  page: number;
}

export async function listInvoices(db: Kysely<Database>, principal: Principal, query: ListQuery) {
  const filter = {
    statuses:
      query.status === undefined ? undefined : ([...new Set(query.status.split(','))] as InvoiceStatus[]),
    orderId: query.order_id,
  };
  const [rows, { total, live }] = await Promise.all([
    repo.listInvoices(db, principal.projectId, filter, { limit: query.limit, offset: offsetOf(query) }),
    repo.countInvoices(db, principal.projectId, filter, principal.keyId),
  ]);
  if (!live) await principal.confirm();
  return { rows, pagination: pagination(query, total) };
}
