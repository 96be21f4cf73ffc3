import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { type AuditAction, audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { IDEMPOTENCY_RETENTION_MS, reusedKeyError } from '../invoices/idempotency.js';
import { queueRefundClaim } from '../mail/queue.repository.js';
import { changeRefunds, each, type LockedRefund, type Plan } from './change.js';
import { newClaimToken } from './claim-token.js';
import { claimKey, refundOfKey } from './idempotency.repository.js';
import { lockInvoiceOfRefund, lockRefunds, type RefundTarget } from './lock.repository.js';
import { type Refund, toRefund } from './refund.js';
import { lockInvoice } from './repository.js';
import { changeOf, keyOf, notFoundFor, type RefundContext, type Requester } from './requester.js';

/**
 * What a merchant does to a refund once made (contract §22), from the merchant API and the dashboard
 * alike: cancel it, or make a new claim link. Each runs in one transaction that locks the invoice,
 * then the refund (change.ts), checks and keeps its Idempotency-Key and writes its audit row.
 */

export interface RefundRef {
  /** The invoice named in the API's path; the dashboard names the refund alone. */
  invoiceId?: string;
  refundId: string;
}

/**
 * Cancels a refund awaiting its address or ready to send: its claim link stops working and its amount
 * no longer counts against what was paid. Once its transfer is seen it is on its way: `not_cancelable`.
 */
export function cancelRefund(db: Kysely<Database>, who: Requester, ref: RefundRef, now: Date, key?: string) {
  return act(
    db,
    who,
    ref,
    { op: 'cancel', audit: 'refund.canceled', now, key },
    async (tx, target, replaying) => {
      // A replay answers the refund as it stands: canceled by the request it repeats.
      if (replaying) return asIs(tx, target);
      const [changed] = await changeRefunds(tx, target, each({ kind: 'cancel' }), { now });
      return changed && { row: changed.after, claimUrl: null };
    },
  );
}

/**
 * A new claim link for a refund the payer has not claimed yet (a lost link): the old one stops
 * working at once. Refused (`not_awaiting_address`) once the payer gave an address.
 */
export function newClaimLink(
  db: Kysely<Database>,
  who: Requester,
  ref: RefundRef,
  ctx: RefundContext,
  key?: string,
) {
  const what = { op: 'claim-link', audit: 'refund.claim_link_renewed', now: ctx.now, key } as const;
  return act(db, who, ref, what, async (tx, target, replaying) => {
    const claim = newClaimToken();
    // A replay of a request whose refund was claimed since answers it without a link, as a create's does.
    const relink: Plan = (locked) =>
      locked
        .filter((r) => !replaying || r.status === 'awaiting_address')
        .map((r) => [r, { kind: 'relink', claimTokenHash: claim.hash }] as const);
    const [changed] = await changeRefunds(tx, target, relink, { now: ctx.now });
    if (!changed) return replaying ? asIs(tx, target) : undefined;
    const claimUrl = `${ctx.publicBaseUrl}/refund/${claim.token}`;
    // The new link replaces the old one in a mail to the payer not sent yet (contract §25).
    if (ctx.mail)
      await queueRefundClaim(tx, ctx.mail, {
        refundId: changed.after.id,
        invoiceId: changed.after.invoice_id,
        claimUrl,
        now: ctx.now,
      });
    return { row: changed.after, claimUrl };
  });
}

async function asIs(tx: Transaction<Database>, target: RefundTarget) {
  const [row] = await lockRefunds(tx, target);
  return row && { row, claimUrl: null };
}

interface Act {
  op: 'cancel' | 'claim-link';
  audit: AuditAction;
  now: Date;
  key: string | undefined;
}

type Work = (
  tx: Transaction<Database>,
  target: RefundTarget & { kind: 'one' },
  replaying: boolean,
) => Promise<{ row: LockedRefund; claimUrl: string | null } | undefined>;

async function act(db: Kysely<Database>, who: Requester, ref: RefundRef, what: Act, work: Work) {
  const since = new Date(what.now.getTime() - IDEMPOTENCY_RETENTION_MS);
  const fingerprint = hash([what.op, ref.invoiceId ?? null, ref.refundId]);
  const target = { kind: 'one', projectId: who.projectId, ...ref } as const;
  const done = await db.transaction().execute(async (tx) => {
    // The invoice first (the order of every writer of both); for the API, only while the key is live.
    const invoice = await lockedInvoice(tx, who, ref);
    if (!invoice) return undefined;
    const earlier =
      what.key === undefined ? undefined : await refundOfKey(tx, who.projectId, what.key, since);
    if (earlier && earlier.request_hash !== fingerprint) throw reusedKeyError('refund');
    const result = await work(tx, target, earlier !== undefined);
    if (!result) return undefined;
    if (earlier) return { ...result, replayed: true };
    const claimed =
      what.key === undefined ||
      (await claimKey(tx, {
        projectId: who.projectId,
        key: what.key,
        requestHash: fingerprint,
        refundId: ref.refundId,
        now: what.now,
        since,
      }));
    if (!claimed) throw reusedKeyError('refund');
    await audit(
      tx,
      invoice.account_id,
      changeOf(who, what.now),
      what.audit,
      `${ref.refundId} of ${result.row.invoice_id}`,
    );
    return { ...result, replayed: false };
  });
  if (!done) {
    await notFoundFor(who);
    throw ApiError.notFound('No refund with this id');
  }
  const refund: Refund = toRefund(done.row, done.row.rate !== null, done.claimUrl);
  return { refund, replayed: done.replayed };
}

function lockedInvoice(tx: Transaction<Database>, who: Requester, ref: RefundRef) {
  if (ref.invoiceId === undefined) return lockInvoiceOfRefund(tx, who.projectId, ref.refundId);
  return lockInvoice(tx, who.projectId, ref.invoiceId, keyOf(who));
}

const hash = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
