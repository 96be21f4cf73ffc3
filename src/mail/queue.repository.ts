import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { seal } from '../secrets/seal.js';
import { NEW_MAIL_ID } from './fan-out.repository.js';
import type { MailQueueing } from './queueing.js';

/** What a claim link's seal is bound to: it opens only on the mail of this refund. */
export const claimSealContext = (refundId: string) => `mail_deliveries.claim_url:${refundId}`;

/**
 * Queues the refund's claim link to the invoice's payer, when the invoice has a payer_email, in the
 * transaction that makes the link (no event carries it: the refund keeps only the token's hash). A
 * new link for the same refund (a replayed create, "new claim link") replaces the one in a mail not
 * sent yet; a mail already sent is not sent again (one per refund and payer). The link is held
 * until the mail is sent or given up (delivery.repository.ts erases it).
 */
export async function queueRefundClaim(
  tx: Transaction<Database>,
  mail: MailQueueing,
  input: { refundId: string; invoiceId: string; claimUrl: string; now: Date },
): Promise<void> {
  // Sealed like other secrets at rest, so a copy of the database holds no working link even while
  // the mail waits; in clear only on PostgreSQL without PAYDESK_ENCRYPTION_KEY (docs/email.md).
  const stored = mail.key ? seal(mail.key, input.claimUrl, claimSealContext(input.refundId)) : input.claimUrl;
  await sql`
    insert into mail_deliveries (id, kind, subject_id, project_id, invoice_id, refund_id, recipient, language,
                                 claim_url, status, next_attempt_at, created_at, updated_at)
    select ${NEW_MAIL_ID}, 'refund_claim', ${input.refundId}, i.project_id, i.id, ${input.refundId}, i.payer_email,
           coalesce(i.payer_language, 'en'), ${stored}, 'pending', ${input.now}, ${input.now}, ${input.now}
    from invoices i
    where i.id = ${input.invoiceId} and i.payer_email is not null
    on conflict (kind, subject_id, recipient) do update
      set claim_url = excluded.claim_url, updated_at = excluded.updated_at
      where mail_deliveries.status = 'pending'`.execute(tx);
}
