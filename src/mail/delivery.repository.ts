import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { MailKind } from './templates/render.js';

type Db = Kysely<Database>;

/** A mail leased for sending, with what its template needs (its event's body, its refund, the project). */
export interface ClaimedMail {
  id: string;
  kind: MailKind;
  recipient: string;
  language: string;
  invoice_id: string;
  refund_id: string | null;
  /** This attempt's number (counted at the claim, so a crash mid-send counts too). */
  attempts: number;
  /** The lease, and the fencing token for recording the outcome: only its holder writes it. */
  lease_until: Date;
  /** Sealed (src/secrets/seal.ts) when the queuing instance had a key; claim.ts opens it. */
  claim_url: string | null;
  merchant: string;
  livemode: boolean;
  /** The event's body (invoice mails): its `data.invoice` and, after close, `data.payment`. */
  event_body: string | null;
  refund_amount: string | null;
  refund_currency: string | null;
}

/**
 * Leases due mails, committed at once, so that sending happens outside any transaction: pending ones
 * whose time has come, and those whose lease lapsed (an instance died mid-send: sent again, the one
 * duplicate docs/email.md allows). SKIP LOCKED and the repeated due condition let instances claim side
 * by side without leasing one mail twice.
 */
export async function claimDueMail(
  db: Db,
  r: { now: Date; leaseUntil: Date; limit: number },
): Promise<ClaimedMail[]> {
  const due = sql`((m.status = 'pending' and m.next_attempt_at <= ${r.now})
    or (m.status = 'sending' and m.lease_until <= ${r.now}))`;
  const result = await sql<ClaimedMail>`
    with claimed as (
      select m.id from mail_deliveries m
      where m.id = any(array(
        select m.id from mail_deliveries m where ${due} order by m.next_attempt_at, m.id limit ${r.limit}))
        and ${due}
      for update skip locked
    )
    update mail_deliveries m
    set status = 'sending', attempts = m.attempts + 1, lease_until = ${r.leaseUntil}, updated_at = ${r.now}
    from claimed, invoices i, projects p
    where m.id = claimed.id and i.id = m.invoice_id and p.id = m.project_id
    returning m.id, m.kind, m.recipient, m.language, m.invoice_id, m.refund_id, m.attempts, m.lease_until, m.claim_url,
      p.name as merchant, i.livemode,
      (select e.body from events e where e.id = m.event_id) as event_body,
      (select r.amount::text from refunds r where r.id = m.refund_id) as refund_amount,
      (select r.currency from refunds r where r.id = m.refund_id) as refund_currency`.execute(db);
  return result.rows;
}

/** What became of an attempt: sent, to be tried again at a time, or given up. */
export type MailOutcome =
  | { status: 'sent' }
  | { status: 'pending'; nextAttemptAt: Date; error: string }
  | { status: 'failed'; error: string };

/**
 * Records an attempt's outcome, if this worker still holds the lease (else another instance took the
 * mail over, and its outcome counts). A sent or given-up mail forgets its claim link.
 */
export async function recordMailOutcome(
  db: Db,
  mail: ClaimedMail,
  outcome: MailOutcome,
  now: Date,
): Promise<void> {
  const done = outcome.status !== 'pending';
  await sql`
    update mail_deliveries
    set status = ${outcome.status},
        sent_at = ${outcome.status === 'sent' ? now : null},
        next_attempt_at = ${outcome.status === 'pending' ? outcome.nextAttemptAt : now},
        last_error = ${outcome.status === 'sent' ? null : outcome.error},
        claim_url = case when ${done} then null else claim_url end,
        lease_until = null,
        updated_at = ${now}
    where id = ${mail.id} and status = 'sending' and lease_until = ${mail.lease_until}`.execute(db);
}

/** On stop, a mail not sent yet goes back to the queue at once, for any instance. */
export async function releaseMail(db: Db, mail: ClaimedMail, now: Date): Promise<void> {
  await sql`
    update mail_deliveries
    set status = 'pending', attempts = attempts - 1, lease_until = null, next_attempt_at = ${now}, updated_at = ${now}
    where id = ${mail.id} and status = 'sending' and lease_until = ${mail.lease_until}`.execute(db);
}
