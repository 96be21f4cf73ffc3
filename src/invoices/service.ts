import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newDepositAddress } from '../chains/addresses.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { offsetOf, pagination } from '../http/pagination.js';
import { newId } from '../ids.js';
import type { Principal } from '../merchants/authenticate.js';
import { SANDBOX } from '../merchants/merchant.js';
import { newEvent } from '../webhooks/outbox.js';
import { parseAmount } from './amount.js';
import { IDEMPOTENCY_RETENTION_MS, requestFingerprint } from './idempotency.js';
import { type InvoiceStatus, toInvoice } from './invoice.js';
import type { InvoiceRow } from './invoice.table.js';
import * as repo from './repository.js';

export interface NewInvoice {
  amount: string;
  order_id?: string | null | undefined;
  metadata?: Record<string, string> | null | undefined;
}

export interface Created {
  invoice: InvoiceRow;
  /** True when an earlier request with the same Idempotency-Key made it. */
  replayed: boolean;
}

/** Creates a pending invoice on the caller's project; currency, network and expiry come from the project. */
export async function createInvoice(
  db: Kysely<Database>,
  principal: Principal,
  input: NewInvoice,
  idempotencyKey: string | undefined,
  now: Date,
  publicBaseUrl: string,
): Promise<Created> {
  const amount = parseAmount(input.amount);
  if (!amount.ok)
    throw ApiError.validation([{ in: 'body', field: 'amount', rule: amount.rule, message: amount.message }]);
  const id = newId('inv');
  // On a chain the address is the next one of the project's xpub; on `sandbox` a synthetic one.
  const deposit =
    principal.network === SANDBOX
      ? { address: sandboxAddress(id), index: null }
      : await newDepositAddress(db, principal.projectId);
  const row: InvoiceRow = {
    id,
    project_id: principal.projectId,
    status: 'pending',
    amount: amount.value,
    currency: principal.currency,
    network: principal.network,
    order_id: input.order_id ?? null,
    metadata: input.metadata ?? {},
    payment_expires_at: new Date(now.getTime() + principal.invoiceTtlSeconds * 1000),
    paid_at: null,
    tx_hash: null,
    pay_address: deposit.address,
    address_index: deposit.index,
    amount_paid: '0',
    paid_late: false,
    failure_reason: null,
    awaiting_confirmation: false,
    created_at: now,
    updated_at: now,
  };
  const created = newEvent(
    row.project_id,
    id,
    'invoice.created',
    { invoice: toInvoice(row, publicBaseUrl), previous_status: null },
    now,
  );
  if (idempotencyKey === undefined) {
    // Nothing written means the key was not live in the statement's snapshot: confirm() answers the
    // auth error, or (the key was live again by then, say a project re-activated) we try once more.
    for (let round = 0; round < 2; round++) {
      const inserted = await repo.insertInvoice(db, row, created, principal.keyId);
      if (inserted) return { invoice: inserted, replayed: false };
      await principal.confirm();
    }
    throw new Error('invoice insert wrote nothing for a live key');
  }

  const fingerprint = requestFingerprint({
    amount: row.amount,
    order_id: input.order_id ?? undefined,
    metadata: row.metadata,
  });
  const claim = {
    key: idempotencyKey,
    fingerprint,
    expiredBefore: new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS),
  };
  // Two rounds at most: the holder of a key we lost to may have been purged between our two reads.
  for (let round = 0; round < 2; round++) {
    const inserted = await repo.insertInvoice(db, row, created, principal.keyId, claim);
    if (inserted) return { invoice: inserted, replayed: false };
    // Nothing written: the key was taken by an earlier request, or the API key is no longer live.
    await principal.confirm();
    const existing = await repo.findClaimedInvoice(db, principal.projectId, idempotencyKey);
    if (!existing) continue;
    if (existing.request_hash !== fingerprint) {
      throw ApiError.validation([
        {
          in: 'header',
          field: 'Idempotency-Key',
          rule: 'reused_with_different_request',
          message:
            'This Idempotency-Key was already used with a different request; use a new key for a new invoice',
        },
      ]);
    }
    const { request_hash: _, ...invoice } = existing;
    return { invoice, replayed: true };
  }
  throw new Error('idempotency key claim did not settle');
}

/**
 * On `sandbox` the pay address is synthetic: derived from the invoice id, so it is unique to the
 * invoice and looks like the EVM address a real network will give.
 */
export function sandboxAddress(invoiceId: string): string {
  return `0x${createHash('sha256').update(invoiceId).digest('hex').slice(0, 40)}`;
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
