-- The point of sale (contract §25, issue 36): a till is a PIN-protected page /pos/{id} that a shop's
-- phone or tablet at the counter opens without a dashboard session. The PIN is kept only as an scrypt
-- hash (src/users/password.ts's format); `session_key` signs the till's session cookies, so changing
-- it (or disabling the till) ends every open session. Items are the till's optional price list:
-- [{ "name", "price" (decimal string), "tax_percent" (decimal string or null) }].
create table tills (
  id text primary key,
  project_id text not null references projects (id),
  name text not null check (char_length(name) between 1 and 100),
  pin_hash text not null,
  session_key bytea not null,
  items jsonb not null default '[]'::jsonb,
  currency text not null,
  active boolean not null default true,
  created_at timestamptz not null
);

create index tills_project on tills (project_id, created_at);

-- Wrong PINs, counted per till ('till', till id) and per client address ('client', address): at the
-- limit the scope is locked until `locked_until` (src/pos/lockout.ts). A right PIN clears both rows.
create table till_pin_failures (
  scope text not null check (scope in ('till', 'client')),
  key text not null,
  failures integer not null,
  first_failed_at timestamptz not null,
  locked_until timestamptz,
  primary key (scope, key)
);

-- The till an invoice was charged at: its sales are traceable (null for every other invoice).
alter table invoices add column till_id text references tills (id);
create index invoices_till on invoices (till_id, created_at) where till_id is not null;
