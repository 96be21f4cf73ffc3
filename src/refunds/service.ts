import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { newId } from '../ids.js';
import { IDEMPOTENCY_RETENTION_MS, reusedKeyError } from '../invoices/idempotency.js';
import { formatInCurrency } from '../invoices/pricing.js';
import { formatMoney, type Money, money, parseInvoiceAmount } from '../money/money.js';
import { refundable, refundableStatus } from './amounts.js';
import { changeRefunds, type Plan } from './change.js';
import { newClaimToken } from './claim-token.js';
import { type Refund, toRefund } from './refund.js';
import type { RefundRow } from './refund.table.js';
import * as repo from './repository.js';

export interface NewRefundInput {
  amount?: string | null | undefined;
  reason?: string | null | undefined;
}

/** Who asks: a merchant's API key (checked live in the statement), or a dashboard user (audited). */
export type Requester =
  | { kind: 'api'; projectId: string; keyId: string; confirm(): Promise<void> }
  | { kind: 'dashboard'; projectId: string; change: Change };

export interface RefundContext {
  now: Date;
  publicBaseUrl: string;
}

/**
 * Creates a refund awaiting the payer's address, and its single-use claim link (returned this once).
 * The invoice row is locked for the transaction, so two refunds decided at once take turns: the
 * second sees the first in `amount_refunded`, and the refunds never add up to more than was paid.
 */
export async function createRefund(
  db: Kysely<Database>,
  who: Requester,
  invoiceId: string,
  input: NewRefundInput,
  ctx: RefundContext,
  idempotencyKey?: string,
): Promise<{ refund: Refund; replayed: boolean }> {
  const claim = newClaimToken();
  const since = new Date(ctx.now.getTime() - IDEMPOTENCY_RETENTION_MS);
  const created = await db.transaction().execute(async (tx) => {
    const keyId = who.kind === 'api' ? who.keyId : undefined;
    const invoice = await repo.lockInvoice(tx, who.projectId, invoiceId, keyId);
    if (!invoice) return undefined;
    const rated = invoice.rate !== null;
    const fingerprint = refundFingerprint(invoiceId, input);
    if (idempotencyKey !== undefined) {
      const earlier = await repo.refundOfKey(tx, who.projectId, idempotencyKey, since);
      if (earlier) {
        if (earlier.request_hash !== fingerprint) throw reusedKeyError('refund');
        return { ...(await replay(tx, earlier, claim, ctx.now)), rated, replayed: true };
      }
    }
    const amount = refundAmount(invoice, input.amount ?? undefined);
    const row = await repo.insertRefund(tx, {
      id: newId('ref'),
      invoice_id: invoice.id,
      project_id: invoice.project_id,
      amount: formatMoney(amount),
      currency: invoice.currency,
      // A refund is of its invoice's money: live or test as the invoice is (contract §21).
      livemode: invoice.livemode,
      reason: input.reason ?? null,
      status: 'awaiting_address',
      claim_token_hash: claim.hash,
      network: null,
      token: null,
      token_amount: null,
      address: null,
      after_block: null,
      ready_at: null,
      tx_hash: null,
      block_number: null,
      confirmed_at: null,
      created_at: ctx.now,
      updated_at: ctx.now,
    });
    if (idempotencyKey !== undefined) {
      const key = {
        projectId: who.projectId,
        key: idempotencyKey,
        requestHash: fingerprint,
        refundId: row.id,
      };
      // Taken meanwhile by a refund of another invoice: that is another request (and this one's
      // refund is rolled back with the transaction).
      if (!(await repo.claimKey(tx, { ...key, now: ctx.now, since }))) throw reusedKeyError('refund');
    }
    await repo.addRefunded(tx, invoice.id, formatMoney(amount), ctx.now);
    if (who.kind === 'dashboard') {
      await audit(tx, invoice.account_id, who.change, 'refund.created', `${row.id} of ${invoice.id}`);
    }
    return { row, rated, linked: true, replayed: false };
  });
  if (!created) {
    if (who.kind === 'api') await who.confirm();
    throw ApiError.notFound('No invoice with this id');
  }
  const claimUrl = created.linked ? `${ctx.publicBaseUrl}/refund/${claim.token}` : null;
  return { refund: toRefund(created.row, created.rated, claimUrl), replayed: created.replayed };
}

/**
 * A retry of a create that already made its refund answers that refund. Its claim link was shown
 * once and only its hash is kept, so a refund the payer has not claimed yet gets a new link, and the
 * lost one stops working; a claimed refund needs none (`claim_url` null).
 */
async function replay(
  tx: Transaction<Database>,
  earlier: RefundRow,
  claim: { hash: string },
  now: Date,
): Promise<{ row: RefundRow; linked: boolean }> {
  const target = { kind: 'one', projectId: earlier.project_id, refundId: earlier.id } as const;
  // Decided under the refund's lock: a payer claiming it at this moment wins, and no link is made.
  const relink: Plan = (locked) =>
    locked
      .filter((r) => r.status === 'awaiting_address')
      .map((r) => [r, { kind: 'relink', claimTokenHash: claim.hash }] as const);
  const [changed] = await changeRefunds(tx, target, relink, { now });
  return changed ? { row: changed.after, linked: true } : { row: earlier, linked: false };
}

/**
 * Two creates are the same request when they name the same invoice, amount and reason ("10" and
 * "10.00" alike). An amount that is not a decimal is kept as sent: refundAmount refuses it anyway.
 */
function refundFingerprint(invoiceId: string, input: NewRefundInput): string {
  const amount = input.amount ?? null;
  const normal =
    amount !== null && /^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/.test(amount) ? formatMoney(money(amount)) : amount;
  const canonical = JSON.stringify([invoiceId, normal, input.reason ?? null]);
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * What this refund may be: only of a paid or failed invoice (a pending one may still be paid, an
 * expired one was not, unless money reached it after close), and never more than is left of what was
 * paid and arrived after close. Without an amount, all of it.
 */
function refundAmount(invoice: repo.LockedInvoice, given: string | undefined): Money {
  if (!refundableStatus(invoice)) {
    throw ApiError.validation([
      {
        in: 'path',
        field: 'invoice',
        rule: 'not_refundable',
        message: `Only a paid or failed invoice, or one that received money after it closed, can be refunded; this one is ${invoice.status}`,
      },
    ]);
  }
  const left = refundable(invoice);
  const rated = invoice.rate !== null;
  const shown = formatInCurrency(formatMoney(left), invoice.currency, rated);
  if (given === undefined) {
    if (left > 0n) return left;
    throw exceedsPaid(`Nothing is left to refund: the invoice's refunds already reach what was paid`);
  }
  const parsed = parseInvoiceAmount(given, 'amount', invoice.currency);
  if (!parsed.ok) {
    throw ApiError.validation([{ in: 'body', field: 'amount', rule: parsed.rule, message: parsed.message }]);
  }
  if (parsed.value > left) {
    throw exceedsPaid(
      `amount is more than is left to refund: at most ${shown} ${invoice.currency} (paid, less the refunds not canceled)`,
    );
  }
  return parsed.value;
}

function exceedsPaid(message: string): ApiError {
  const error: FieldError = { in: 'body', field: 'amount', rule: 'exceeds_paid', message };
  return ApiError.validation([error]);
}

/** An invoice's refunds, oldest first; NOT_FOUND for an invoice of another project. */
export async function listRefunds(db: Kysely<Database>, who: Requester, invoiceId: string) {
  const keyId = who.kind === 'api' ? who.keyId : undefined;
  const invoice = await repo.invoiceExists(db, who.projectId, invoiceId, keyId);
  if (!invoice) {
    if (who.kind === 'api') await who.confirm();
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
