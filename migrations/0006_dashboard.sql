-- The merchant dashboard (issue 10, contract §13): its users, their invites and sessions, the audit
-- log, a second signing secret for rolled webhook secrets, and the indexes its pages read through.

-- A dashboard user belongs to one account. The email signs in, so it is unique among users that are
-- not removed (stored lower-cased). No password until the invite is accepted.
create table dashboard_users (
  id               text primary key,
  account_id       text not null references accounts (id),
  email            text not null,
  role             text not null check (role in ('owner', 'viewer')),
  password_hash    text,
  -- Base32 TOTP secret (RFC 6238) once two-factor is confirmed; a pending enrolment waits in totp_pending.
  totp_secret      text,
  totp_pending     text,
  created_at       timestamptz not null,
  last_sign_in_at  timestamptz,
  removed_at       timestamptz
);
create unique index dashboard_users_email_idx on dashboard_users (email) where removed_at is null;
create index dashboard_users_account_idx on dashboard_users (account_id) where removed_at is null;

-- Single-use links to set a password. Only the SHA-256 of the token is kept.
create table dashboard_invites (
  token_hash  bytea primary key,
  user_id     text not null references dashboard_users (id),
  expires_at  timestamptz not null,
  used_at     timestamptz,
  created_at  timestamptz not null
);
create index dashboard_invites_user_idx on dashboard_invites (user_id);

-- Server-side sessions: the cookie holds a random token, the table its SHA-256. Every request reads
-- its row, so deleting it (sign-out, password change, removal) ends the session on every instance.
create table dashboard_sessions (
  token_hash    bytea primary key,
  user_id       text not null references dashboard_users (id),
  -- The per-session anti-CSRF token every form and JSON call carries back.
  csrf_token    text not null,
  -- The project the user is looking at, when the account has several.
  project_id    text references projects (id),
  -- Set once the password checked out but a TOTP code is still owed: such a session reaches nothing else.
  needs_totp    boolean not null default false,
  created_at    timestamptz not null,
  last_seen_at  timestamptz not null,
  expires_at    timestamptz not null
);
create index dashboard_sessions_user_idx on dashboard_sessions (user_id);

-- Who did what, when, per account; newest first on the Team page.
create table audit_log (
  id           bigint generated always as identity primary key,
  account_id   text not null references accounts (id),
  actor_id     text,
  actor_email  text not null,
  action       text not null,
  target       text,
  created_at   timestamptz not null
);
create index audit_log_account_idx on audit_log (account_id, id desc);

-- A rolled secret keeps signing beside the new one until it expires (Standard Webhooks allows several
-- space-separated signatures).
alter table webhook_endpoints
  add column previous_secret             text,
  add column previous_secret_expires_at  timestamptz;

-- The dashboard's invoice detail reads an event's deliveries and each delivery's attempts.
create index webhook_deliveries_event_idx on webhook_deliveries (event_id);
create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, id);

-- The Overview's paid volume per day: kept per project and UTC day by the database, as invoice_counts
-- keeps the totals, so the chart reads at most 30 × 64 small rows whether the project has a thousand
-- paid invoices a month or a million. Sharded by backend like invoice_counts, so that payments landing
-- at once in one project do not queue on one row. `paid` is terminal: an invoice enters it once.
create table invoice_paid_daily (
  project_id  text not null,
  day         date not null,
  shard       smallint not null,
  n           bigint not null,
  volume      numeric not null,
  primary key (project_id, day, shard)
);

create function invoice_paid_daily_on_insert() returns trigger language plpgsql as $$
begin
  insert into invoice_paid_daily (project_id, day, shard, n, volume)
  select project_id, (paid_at at time zone 'UTC')::date, (pg_backend_pid() % 64)::smallint, count(*), sum(amount)
  from new_rows where status = 'paid' and paid_at is not null
  group by 1, 2 order by 1, 2
  on conflict (project_id, day, shard) do update
    set n = invoice_paid_daily.n + excluded.n, volume = invoice_paid_daily.volume + excluded.volume;
  return null;
end;
$$;

create function invoice_paid_daily_on_update() returns trigger language plpgsql as $$
begin
  insert into invoice_paid_daily (project_id, day, shard, n, volume)
  select w.project_id, (w.paid_at at time zone 'UTC')::date, (pg_backend_pid() % 64)::smallint, count(*), sum(w.amount)
  from old_rows o join new_rows w on w.id = o.id
  where w.status = 'paid' and o.status <> 'paid' and w.paid_at is not null
  group by 1, 2 order by 1, 2
  on conflict (project_id, day, shard) do update
    set n = invoice_paid_daily.n + excluded.n, volume = invoice_paid_daily.volume + excluded.volume;
  return null;
end;
$$;

create trigger invoice_paid_daily_on_insert
  after insert on invoices referencing new table as new_rows
  for each statement execute function invoice_paid_daily_on_insert();

create trigger invoice_paid_daily_on_update
  after update on invoices referencing old table as old_rows new table as new_rows
  for each statement execute function invoice_paid_daily_on_update();

insert into invoice_paid_daily (project_id, day, shard, n, volume)
select project_id, (paid_at at time zone 'UTC')::date, 0, count(*), sum(amount)
from invoices where status = 'paid' and paid_at is not null
group by 1, 2;

-- "Send test event" writes an event of type webhook.test for one endpoint and queues its delivery
-- itself: the fan-out leaves test events alone, so the project's other endpoints never receive it.
create or replace function events_fan_out() returns trigger language plpgsql as $$
begin
  insert into webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
  select ev.id, e.id, 'pending', ev.created_at, ev.created_at, ev.created_at
  from new_events ev
  join webhook_endpoints e
    on e.project_id = ev.project_id
   and e.status = 'active'
   and e.deleted_at is null
   and (cardinality(e.events) = 0 or ev.type = any(e.events))
  where ev.type <> 'webhook.test';
  return null;
end;
$$;
