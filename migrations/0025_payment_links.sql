-- Payment links (contract §25, issue 36): a page at /l/{id} that makes an invoice only when the payer
-- presses "Pay". A link has a fixed amount, or none and the payer chooses one within min/max (each
-- bound optional). `uses` counts the invoices made from it, raised in the same transaction as each
-- invoice's insert under the row's lock, so `max_uses` is never exceeded, whatever the concurrency.
create table payment_links (
  id text primary key,
  project_id text not null references projects (id),
  title text not null check (char_length(title) between 1 and 200),
  description text check (char_length(description) <= 500),
  amount numeric(17, 2) check (amount > 0),
  min_amount numeric(17, 2) check (min_amount > 0),
  max_amount numeric(17, 2) check (max_amount > 0),
  currency text not null,
  redirect_url text check (char_length(redirect_url) <= 2000),
  collect_email boolean not null default false,
  max_uses integer check (max_uses > 0),
  uses integer not null default 0 check (uses >= 0),
  expires_at timestamptz,
  active boolean not null default true,
  -- The key of the page's form tokens (links/token.ts): random per link, never shown, the same on
  -- every instance. A view stores nothing; a POST "Pay" must carry a token the page made lately.
  form_secret bytea not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  check (amount is null or (min_amount is null and max_amount is null)),
  check (min_amount is null or max_amount is null or min_amount <= max_amount),
  check (max_uses is null or uses <= max_uses)
);

create index payment_links_project on payment_links (project_id, created_at desc, id desc);

alter table invoices add column if not exists payment_link_id text references payment_links (id);
create index if not exists invoices_payment_link on invoices (payment_link_id, created_at desc, id desc)
  where payment_link_id is not null;

-- Shared with the point of sale and e-mail (migrations 0026, 0027 add them alike, whichever runs
-- first): the payer's address, lower-cased and checked, and the payment page language they used.
alter table invoices add column if not exists payer_email text check (char_length(payer_email) <= 254);
alter table invoices add column if not exists payer_language text
  check (payer_language in ('en', 'es', 'pt', 'ru', 'tr', 'zh'));
