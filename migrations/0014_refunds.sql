-- Refunds (issue 24, contract §18). Paydesk never holds the money: the payer names an address through
-- a single-use claim link, the merchant's own wallet sends the tokens, and the chain watcher sees them
-- arrive. A refund belongs to one invoice; its amount is in the invoice currency.
create table refunds (
  id               text primary key,
  invoice_id       text not null references invoices (id),
  project_id       text not null references projects (id),
  -- In the invoice currency, with its decimals (or the exact unrefunded rest of what was paid).
  amount           numeric(38, 18) not null check (amount > 0),
  currency         text not null,
  reason           text,
  status           text not null
    check (status in ('awaiting_address', 'ready', 'sent', 'confirmed', 'canceled')),
  -- SHA-256 of the claim link's token: the token itself is never stored. Null once used or canceled.
  claim_token_hash text unique,
  -- Chosen on the claim page: the method, the payer's address, and the tokens the merchant must send
  -- (the amount at the invoice's locked rate, rounded up at the token's precision).
  network          text,
  token            text,
  token_amount     numeric(38, 18),
  address          text,
  -- The network's watcher cursor when the refund became ready: only a transfer in a later block counts.
  after_block      bigint,
  ready_at         timestamptz,
  tx_hash          text,
  block_number     bigint,
  confirmed_at     timestamptz,
  created_at       timestamptz not null,
  updated_at       timestamptz not null
);
create index refunds_invoice_idx on refunds (invoice_id, created_at);
-- The merchant's list of refunds to pay, newest first.
create index refunds_waiting_idx on refunds (project_id, created_at) where status in ('ready', 'sent');
-- The chain watcher's probe: one index lookup per recipient of a transfer, as for deposit addresses.
create index refunds_recipient_idx on refunds (network, address) where status = 'ready';
-- Refunds whose transfer was seen but is not yet deep enough: each scan step confirms the buried ones.
create index refunds_sent_idx on refunds (network, block_number) where status = 'sent';

-- What was refunded, kept on the invoice in the same transaction as each refund (canceled ones
-- excluded), so the invoice object and the CSV export show it without a join.
alter table invoices add column amount_refunded numeric(38, 18) not null default 0;
