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

-- The Overview's paid volume per day reads only the paid invoices of the last 30 days.
create index invoices_project_paid_idx on invoices (project_id, paid_at) where paid_at is not null;

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
