-- E-mail (contract §25, issue 36): receipts to payers, refund claim links, and notices to a project's
-- owners, sent through an outbox like webhooks. See docs/email.md.

-- The payer's address and language, given on a payment link (the payment-links work adds the same
-- columns; either migration may run first). The payer's language is one of the payment page's.
alter table invoices add column if not exists payer_email text null;
alter table invoices add column if not exists payer_language text null;

-- One row per mail to send. Mails about an invoice's events are derived from the committed events by
-- the mail workers (src/mail/fan-out.repository.ts), so they are as durable as the events, written in
-- the transaction of the change; a refund's claim link, which no event carries, is queued in the
-- transaction that creates the refund. The unique key means a mail is never queued twice.
create table mail_deliveries (
  id               text primary key,
  kind             text not null check (kind in ('receipt', 'refund_claim', 'owner_paid', 'owner_after_close')),
  -- What the mail is about, once per recipient: the invoice (receipt, owner_paid), the event of a
  -- payment after close (owner_after_close), the refund (refund_claim).
  subject_id       text not null,
  project_id       text not null references projects (id),
  invoice_id       text not null references invoices (id),
  refund_id        text null references refunds (id),
  event_id         text null,
  recipient        text not null,
  language         text not null,
  -- The refund's claim link, a capability (the refund keeps only its hash): held until the mail is
  -- sent or given up, then erased.
  claim_url        text null,
  -- pending: due at next_attempt_at; sending: leased until lease_until (a lapsed lease is sent again);
  -- sent; failed: given up after the last attempt.
  status           text not null check (status in ('pending', 'sending', 'sent', 'failed')),
  attempts         integer not null default 0,
  next_attempt_at  timestamptz not null,
  lease_until      timestamptz null,
  sent_at          timestamptz null,
  -- The SMTP server's answer or the network error, never the server's URL or credentials.
  last_error       text null,
  created_at       timestamptz not null,
  updated_at       timestamptz not null,
  unique (kind, subject_id, recipient)
);
create index mail_deliveries_due_idx on mail_deliveries (next_attempt_at) where status = 'pending';
create index mail_deliveries_leased_idx on mail_deliveries (lease_until) where status = 'sending';
create index mail_deliveries_invoice_idx on mail_deliveries (invoice_id);

-- The mail fan-out's cursor over the events, as webhook_fan_out's (0009): events of transactions
-- older than every running one, in (xid, seq) order. It starts after the events already written, so
-- turning mail on never mails the past.
create table mail_fan_out (
  only_row  boolean primary key default true check (only_row),
  xid       xid8 not null,
  seq       bigint not null
);
insert into mail_fan_out (xid, seq)
select coalesce((select xid from events where xid is not null order by xid desc, seq desc limit 1), '0'),
       coalesce((select seq from events where xid is not null order by xid desc, seq desc limit 1), 0);
