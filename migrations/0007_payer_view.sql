-- The payer's view (issue 13): a way back to the shop, and the project's branding.

-- Where the payment page sends the payer after paying (redirect_url) or when giving up (cancel_url).
-- Validated by the API (absolute https://, at most 2,000 characters); null when not given.
alter table invoices
  add column redirect_url text,
  add column cancel_url   text;

-- A brand colour (#rrggbb, checked for contrast by the service) for the payment page's buttons.
alter table projects add column brand_color text;

-- The project's logo, as we re-encoded it (never the uploaded bytes): served from our own origin under
-- its content hash, so a new logo is a new URL and the old one can be cached for good.
create table project_logos (
  project_id   text primary key references projects (id),
  hash         text not null,
  content_type text not null check (content_type in ('image/png')),
  image        bytea not null,
  width        integer not null,
  height       integer not null,
  updated_at   timestamptz not null
);
-- Two projects may upload the same image: any row with a hash holds the same bytes.
create index project_logos_hash_idx on project_logos (hash);
