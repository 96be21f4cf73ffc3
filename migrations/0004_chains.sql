-- Real payments on EVM networks (issue 5): per-invoice deposit addresses derived from the project's
-- extended public key, and the chain watchers' own bookkeeping.

-- The account-level extended public key (BIP32) that deposit addresses are derived from. Paydesk never
-- holds a private key. Null on `sandbox`.
alter table projects add column xpub text;

-- The next unused child index of each extended public key. Keyed by the key, not the project, so two
-- projects given the same xpub still never share an address. Taken with one atomic upsert per invoice:
-- an index is never handed out twice, by any number of instances.
create table xpub_indexes (
  xpub        text primary key,
  next_index  bigint not null
);

alter table invoices add column address_index bigint;

-- The watchers find the invoice behind a transfer's recipient through this index: the cost of a block
-- grows with its transfers, not with the number of open invoices. Unique: one address, one invoice.
-- Partial: sandbox addresses are unique by construction and never looked up, so sandbox creates (the
-- hot path of integration traffic) do not pay for the index.
create unique index invoices_network_address_idx on invoices (network, pay_address) where network <> 'sandbox';

-- Where each network's watcher has got to: the last block fully processed, and its hash (a different
-- hash at that height later means a reorganisation).
create table chain_cursors (
  network       text primary key,
  block_number  bigint not null,
  block_hash    text not null,
  updated_at    timestamptz not null
);

-- Hashes of recently processed blocks, to find the common ancestor after a reorganisation.
create table chain_blocks (
  network       text not null,
  block_number  bigint not null,
  block_hash    text not null,
  primary key (network, block_number)
);

-- Every token transfer to an open invoice's address, as found on chain: one row per transaction and
-- invoice (several Transfer logs of one transaction to one address add up). `units` is in the
-- token's smallest unit.
create table chain_transfers (
  network       text not null,
  tx_hash       text not null,
  invoice_id    text not null references invoices (id),
  token         text not null,
  units         numeric(78, 0) not null check (units > 0),
  block_number  bigint not null,
  block_hash    text not null,
  status        text not null check (status in ('seen', 'confirmed', 'reversed')),
  primary key (network, tx_hash, invoice_id)
);
-- "Seen, waiting for confirmations" and "above the common ancestor" both walk this.
create index chain_transfers_block_idx on chain_transfers (network, block_number) where status <> 'reversed';
