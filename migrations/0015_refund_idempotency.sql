-- Idempotent refund creation (issue 24): `POST /v1/merchant/invoices/{id}/refunds` takes an
-- Idempotency-Key, as an invoice create does (contract §4), so a merchant retrying after a lost answer
-- never makes a second refund. A key is the project's; it is kept at least 24 hours, then purged.
create table refund_idempotency_keys (
  project_id   text not null,
  key          text not null,
  request_hash text not null,
  refund_id    text not null references refunds (id),
  created_at   timestamptz not null,
  primary key (project_id, key)
);
create index refund_idempotency_keys_created_idx on refund_idempotency_keys (created_at);
