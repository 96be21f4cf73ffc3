import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { NEW_MAIL_ID } from './fan-out.repository.js';

/**
 * Queues the refund's claim link to the invoice's payer, when the invoice has a payer_email, in the
 * transaction that makes the link (no event carries it: the refund keeps only the token's hash). A
 * new link for the same refund (a replayed create, "new claim link") replaces the one in a mail not
 * sent yet; a mail already sent is not sent again (one per refund and payer).
 */
export async function queueRefundClaim(
  tx: Transaction<Database>,
  input: { refundId: string; invoiceId: string; claimUrl: string; now: Date },
): Promise<void> {
  await sql`
    insert into mail_deliveries (id, kind, subject_id, project_id, invoice_id, refund_id, recipient, language,
                                 claim_url, status, next_attempt_at, created_at, updated_at)
    select ${NEW_MAIL_ID}, 'refund_claim', ${input.refundId}, i.project_id, i.id, ${input.refundId}, i.payer_email,
           coalesce(i.payer_language, 'en'), ${input.claimUrl}, 'pending', ${input.now}, ${input.now}, ${input.now}
    from invoices i
    where i.id = ${input.invoiceId} and i.payer_email is not null
    on conflict (kind, subject_id, recipient) do update
      set claim_url = excluded.claim_url, updated_at = excluded.updated_at
      where mail_deliveries.status = 'pending'`.execute(tx);
}
