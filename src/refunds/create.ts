import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { newId } from '../ids.js';
import { IDEMPOTENCY_RETENTION_MS, reusedKeyError } from '../invoices/idempotency.js';
import { queueRefundClaim } from '../mail/queue.repository.js';
import { formatMoney, type Money, money } from '../money/money.js';
import { refundAmount } from './amount-rule.js';
import { changeRefunds, type Plan } from './change.js';
import { newClaimToken } from './claim-token.js';
import { claimKey, refundOfKey } from './idempotency.repository.js';
import { type Refund, toRefund } from './refund.js';
import type { RefundRow, RefundTable } from './refund.table.js';
import * as repo from './repository.js';
import { keyOf, notFoundFor, type RefundContext, type Requester } from './requester.js';

export interface NewRefundInput {
  amount?: string | null | undefined;
  reason?: string | null | undefined;
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
  const fingerprint = refundFingerprint(invoiceId, input);
  const created = await db.transaction().execute(async (tx) => {
    const invoice = await repo.lockInvoice(tx, who.projectId, invoiceId, keyOf(who));
    if (!invoice) return undefined;
    const rated = invoice.rate !== null;
    if (idempotencyKey !== undefined) {
      const earlier = await refundOfKey(tx, who.projectId, idempotencyKey, since);
      if (earlier) {
        if (earlier.request_hash !== fingerprint) throw reusedKeyError('refund');
        const again = await replay(tx, earlier, claim, ctx.now);
        if (again.linked) await mailClaim(tx, ctx, again.row, claim.token);
        return { ...again, rated, replayed: true };
      }
    }
    const amount = refundAmount(invoice, input.amount ?? undefined);
    const row = await repo.insertRefund(tx, newRow(invoice, amount, input, claim.hash, ctx.now));
    // Taken meanwhile by a refund of another invoice: that is another request (and this one's
    // refund is rolled back with the transaction).
    const key = { projectId: who.projectId, requestHash: fingerprint, refundId: row.id, now: ctx.now, since };
    if (idempotencyKey !== undefined && !(await claimKey(tx, { ...key, key: idempotencyKey }))) {
      throw reusedKeyError('refund');
    }
    await repo.addRefunded(tx, invoice.id, formatMoney(amount), ctx.now);
    await mailClaim(tx, ctx, row, claim.token);
    if (who.kind === 'dashboard') {
      await audit(tx, invoice.account_id, who.change, 'refund.created', `${row.id} of ${invoice.id}`);
    }
    return { row, rated, linked: true, replayed: false };
  });
  if (!created) {
    await notFoundFor(who);
    throw ApiError.notFound('No invoice with this id');
  }
  const claimUrl = created.linked ? `${ctx.publicBaseUrl}/refund/${claim.token}` : null;
  return { refund: toRefund(created.row, created.rated, claimUrl), replayed: created.replayed };
}

/** The claim link, queued in this transaction for the payer when mail is on and the invoice has an address. */
async function mailClaim(tx: Transaction<Database>, ctx: RefundContext, row: RefundRow, token: string) {
  if (!ctx.mail) return;
  const claimUrl = `${ctx.publicBaseUrl}/refund/${token}`;
  await queueRefundClaim(tx, ctx.mail, {
    refundId: row.id,
    invoiceId: row.invoice_id,
    claimUrl,
    now: ctx.now,
  });
}

/** A new refund's row: awaiting its address, live or test as its invoice is (contract §21). */
function newRow(
  invoice: repo.LockedInvoice,
  amount: Money,
  input: NewRefundInput,
  claimTokenHash: string,
  now: Date,
): RefundTable {
  return {
    id: newId('ref'),
    invoice_id: invoice.id,
    project_id: invoice.project_id,
    amount: formatMoney(amount),
    currency: invoice.currency,
    livemode: invoice.livemode,
    reason: input.reason ?? null,
    status: 'awaiting_address',
    claim_token_hash: claimTokenHash,
    network: null,
    token: null,
    token_amount: null,
    address: null,
    after_block: null,
    ready_at: null,
    tx_hash: null,
    block_number: null,
    confirmed_at: null,
    created_at: now,
    updated_at: now,
  };
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
