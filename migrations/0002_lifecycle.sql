-- Invoice lifecycle (contract §9), payments, and the webhook outbox (contract §10).

alter table invoices
  add column pay_address     text,
  add column amount_paid     numeric(38, 18) not null default 0,
  add column paid_late       boolean not null default false,
  add column failure_reason  text check (failure_reason in ('underpaid', 'payment_reversed')),
  -- A payment seen before expiry but not yet confirmed holds the invoice open (contract §9: "or first seen before it").
  add column awaiting_confirmation boolean not null default false;

update invoices set pay_address = '0x' || substr(md5(id) || md5(id || 'x'), 1, 40) where pay_address is null;
alter table invoices alter column pay_address set not null;

-- The expiry worker's queue: only open invoices, in deadline order.
create index invoices_expiry_idx on invoices (payment_expires_at) where status = 'pending';

-- One row per observed payment; a repeated observation of the same transaction changes nothing.
create table payments (
  invoice_id    text not null references invoices (id),
  tx_hash       text not null,
  amount        numeric(38, 18) not null check (amount > 0),
  status        text not null check (status in ('pending', 'confirmed', 'reversed')),
  seen_at       timestamptz not null,
  confirmed_at  timestamptz,
  reversed_at   timestamptz,
  primary key (invoice_id, tx_hash)
);

create table webhook_endpoints (
  id          text primary key,
  project_id  text not null references projects (id),
  url         text not null,
  -- Empty means every event type.
  events      text[] not null default '{}',
  -- Needed in clear to sign; never returned after creation.
  secret      text not null,
  status      text not null check (status in ('active', 'disabled')),
  created_at  timestamptz not null,
  deleted_at  timestamptz
);
create index webhook_endpoints_project_idx on webhook_endpoints (project_id) where deleted_at is null;

-- The outbox: written in the same transaction as the change it reports. `body` is the exact JSON text
-- sent on every attempt, so the event id and body never change between retries.
create table events (
  id          text primary key,
  project_id  text not null references projects (id),
  invoice_id  text references invoices (id),
  type        text not null,
  body        text not null,
  created_at  timestamptz not null
);
create index events_invoice_idx on events (invoice_id);

-- One delivery per (event, endpoint): its state, its schedule and its lease.
create table webhook_deliveries (
  id               bigint generated always as identity primary key,
  event_id         text not null references events (id),
  endpoint_id      text not null references webhook_endpoints (id),
  status           text not null check (status in ('pending', 'succeeded', 'failed')),
  attempts         integer not null default 0,
  next_attempt_at  timestamptz not null,
  -- A worker that claimed the delivery owns it until then; a crashed worker's claim simply lapses.
  locked_until     timestamptz,
  created_at       timestamptz not null,
  updated_at       timestamptz not null
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id desc);

-- The delivery log: one row per attempt.
create table webhook_attempts (
  id               bigint generated always as identity primary key,
  delivery_id      bigint not null references webhook_deliveries (id),
  endpoint_id      text not null,
  event_id         text not null,
  attempt          integer not null,
  started_at       timestamptz not null,
  duration_ms      integer not null,
  response_status  integer,
  error            text,
  next_attempt_at  timestamptz
);
create index webhook_attempts_endpoint_idx on webhook_attempts (endpoint_id, id desc);

-- Wakes the delivery workers of every instance as soon as deliveries are committed, so the first
-- attempt does not wait for the next poll. Row-level, so it costs nothing when a change has no
-- subscriber; PostgreSQL folds the repeated notifications of one transaction into one.
create function webhook_deliveries_wake() returns trigger language plpgsql as $$
begin
  perform pg_notify('paydesk_webhooks', '');
  return null;
end;
$$;

create trigger webhook_deliveries_wake
  after insert on webhook_deliveries
  for each row execute function webhook_deliveries_wake();
