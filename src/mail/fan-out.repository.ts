import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { moveCursor, nextEvents } from '../events/cursor.js';

type Db = Kysely<Database>;

/** A new delivery's id: `mail_` and 32 hex digits, made by the database in the inserting statement. */
export const NEW_MAIL_ID = sql`'mail_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * One round of the mail fan-out, as one statement: the next committed events after the mail cursor
 * (read as the webhook fan-out reads them, src/webhooks/fan-out.repository.ts: by writing transaction
 * and sequence, only from transactions older than every running one, the cursor row locked SKIP
 * LOCKED) become mails, and the cursor moves past them in the same statement: nothing is queued twice
 * or lost. The rule, which events become which mails:
 *   - `invoice.paid`: a receipt to the invoice's payer_email, when it has one; a notice to each owner
 *     (dashboard users with the owner role, not removed) of the project's account;
 *   - `invoice.payment_after_close`: a notice to each owner, one per such event (payment);
 *   - only events written at or after `since`: mail that was off, or workers that were down for
 *     longer than that, never send stale receipts;
 *   - each in the payer's language (null: English, the sender's fallback), owners' too (contract §25).
 * The unique key (kind, subject, recipient) drops a mail already queued.
 */
export async function mailFanOutRound(
  db: Db,
  input: { limit: number; since: Date; now: Date },
): Promise<{ events: number; mails: number } | undefined> {
  const result = await sql<{ locked: number; events: number; mails: number }>`
    with ${nextEvents('mail_fan_out', input.limit)},
    wanted as (
      select ev.*, i.payer_email, i.payer_language, p.account_id
      from ev
      join invoices i on i.id = ev.invoice_id
      join projects p on p.id = ev.project_id
      where ev.type in ('invoice.paid', 'invoice.payment_after_close') and ev.created_at >= ${input.since}
    ),
    mail as (
      select 'receipt' as kind, w.invoice_id as subject_id, w.payer_email as recipient, w.*
      from wanted w
      where w.type = 'invoice.paid' and w.payer_email is not null
      union all
      select case when w.type = 'invoice.paid' then 'owner_paid' else 'owner_after_close' end,
             case when w.type = 'invoice.paid' then w.invoice_id else w.id end,
             u.email, w.*
      from wanted w
      join dashboard_users u on u.account_id = w.account_id and u.role = 'owner' and u.removed_at is null
    ),
    queued as (
      insert into mail_deliveries (id, kind, subject_id, project_id, invoice_id, event_id, recipient, language,
                                   status, next_attempt_at, created_at, updated_at)
      select ${NEW_MAIL_ID}, m.kind, m.subject_id, m.project_id, m.invoice_id, m.id, m.recipient,
             coalesce(m.payer_language, 'en'), 'pending', ${input.now}, ${input.now}, ${input.now}
      from mail m
      on conflict (kind, subject_id, recipient) do nothing
      returning 1
    ),
    ${moveCursor('mail_fan_out')}
    select (select count(*) from cursor)::int as locked,
           (select count(*) from ev)::int as events,
           (select count(*) from queued)::int as mails,
           (select count(*) from moved)::int as moved`.execute(db);
  const row = result.rows[0];
  return row && row.locked > 0 ? { events: row.events, mails: row.mails } : undefined;
}
