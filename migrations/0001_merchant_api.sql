-- The v1 merchant API: accounts own projects, projects own API keys and invoices.

create table accounts (
  id          text primary key,
  name        text not null,
  status      text not null check (status in ('active', 'inactive')),
  created_at  timestamptz not null,
  updated_at  timestamptz not null
);

create table projects (
  id                  text primary key,
  account_id          text not null references accounts (id),
  name                text not null,
  status              text not null check (status in ('active', 'inactive')),
  currency            text not null,
  network             text not null,
  invoice_ttl_seconds integer not null check (invoice_ttl_seconds between 60 and 604800),
  created_at          timestamptz not null,
  updated_at          timestamptz not null
);
create index projects_account_idx on projects (account_id);

-- Only the SHA-256 of a key is stored; last4 is what people see.
create table api_keys (
  id            text primary key,
  project_id    text not null references projects (id),
  name          text not null,
  key_hash      bytea not null unique,
  last4         text not null,
  status        text not null check (status in ('active', 'revoked')),
  created_at    timestamptz not null,
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
create index api_keys_project_idx on api_keys (project_id);

create table invoices (
  id                  text primary key,
  project_id          text not null references projects (id),
  status              text not null check (status in ('pending', 'paid', 'expired', 'failed')),
  amount              numeric(17, 2) not null check (amount > 0),
  currency            text not null,
  network             text not null,
  order_id            text,
  metadata            jsonb not null default '{}',
  payment_expires_at  timestamptz not null,
  paid_at             timestamptz,
  tx_hash             text,
  created_at          timestamptz not null,
  updated_at          timestamptz not null
);
-- Newest-first pages, optionally filtered by status or order id.
create index invoices_project_created_idx on invoices (project_id, created_at desc, id desc);
create index invoices_project_status_created_idx on invoices (project_id, status, created_at desc, id desc);
create index invoices_project_order_idx on invoices (project_id, order_id) where order_id is not null;

-- Invoice totals per project and status, so a list's `total` costs the same with 1k or 1M invoices.
-- Writers spread over 64 shards, one per database connection (its backend pid), so that the pooled
-- connections of an instance creating invoices in one project do not queue on one counter row.
create table invoice_counts (
  project_id  text not null,
  status      text not null,
  shard       smallint not null,
  n           bigint not null,
  primary key (project_id, status, shard)
);

-- Statement-level, over transition tables: one aggregated upsert per statement, taking its row locks in
-- key order. Every transaction changes invoice statuses in a single statement (transition.ts), so all
-- of them lock counters in the same order and can never deadlock each other.
create function invoice_counts_on_insert() returns trigger language plpgsql as $$
begin
  insert into invoice_counts (project_id, status, shard, n)
  select project_id, status, (pg_backend_pid() % 64)::smallint, count(*)
  from new_rows group by project_id, status order by project_id, status
  on conflict (project_id, status, shard) do update set n = invoice_counts.n + excluded.n;
  return null;
end;
$$;

create function invoice_counts_on_update() returns trigger language plpgsql as $$
begin
  insert into invoice_counts (project_id, status, shard, n)
  select project_id, status, (pg_backend_pid() % 64)::smallint, sum(n)
  from (
    select o.project_id, o.status, -1 as n from old_rows o join new_rows w on w.id = o.id where w.status <> o.status
    union all
    select w.project_id, w.status, 1 from old_rows o join new_rows w on w.id = o.id where w.status <> o.status
  ) moves
  group by project_id, status having sum(n) <> 0 order by project_id, status
  on conflict (project_id, status, shard) do update set n = invoice_counts.n + excluded.n;
  return null;
end;
$$;

create trigger invoice_counts_on_insert
  after insert on invoices referencing new table as new_rows
  for each statement execute function invoice_counts_on_insert();

create trigger invoice_counts_on_update
  after update on invoices referencing old table as old_rows new table as new_rows
  for each statement execute function invoice_counts_on_update();

-- Idempotency-Key records (contract §4): scoped to the project, kept at least 24 hours.
create table idempotency_keys (
  project_id    text not null references projects (id),
  key           text not null,
  request_hash  text not null,
  invoice_id    text not null,
  created_at    timestamptz not null,
  primary key (project_id, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
