-- Collections with one owner (contract §22, issue 32): a phase in the row, every transaction kept,
-- a leader lease checked where signed bytes are stored.
--
-- A collection's phase, decided by src/collections/lifecycle.ts and written by change.ts only:
--   queued    taken its deposits, not signed yet
--   signed    a transaction (or several, replacements with one nonce) stored and sent, none mined
--   mined     one of its transactions is in a block not yet `confirmations` deep
--   confirmed / failed   final
-- The API's status (pending | confirmed | failed) is read off the phase by the mapper.
alter table collections add column phase text;
update collections set phase = case
  when status in ('confirmed', 'failed') then status
  when block_hash is not null then 'mined'
  when raw_tx is not null then 'signed'
  else 'queued' end;
alter table collections alter column phase set not null;
alter table collections add constraint collections_phase_check
  check (phase in ('queued', 'signed', 'mined', 'confirmed', 'failed'));

-- The account that signed (its nonce is that account's): a rotated key never judges an old nonce.
alter table collections add column signer text;
-- How many transactions were signed for it (1, then one more per replacement): a writer that decided
-- from an older count changes nothing (lifecycle.ts `seen`).
alter table collections add column attempts integer not null default 0;
-- The head when its latest transaction was signed: it is replaced once PAYDESK_COLLECT_REPLACE_BLOCKS
-- more blocks pass without it mined. Unknown before this migration: 0 (those rows have no signer
-- either, and only the signer's key replaces: they are sent again as they are).
alter table collections add column signed_block bigint;
update collections set attempts = 1, signed_block = 0 where raw_tx is not null;
-- Waiting at the fee cap (last_error 'fee_cap'): the max fee per gas needed and the cap, in wei.
alter table collections add column fee_needed numeric(78, 0);
alter table collections add column fee_cap numeric(78, 0);

-- Every transaction signed for a collection, all with its one nonce: whichever is mined confirms it.
create table collection_transactions (
  tx_hash       text primary key,
  collection_id text not null references collections (id),
  attempt       integer not null,
  raw_tx        text not null,
  created_at    timestamptz not null,
  unique (collection_id, attempt)
);
insert into collection_transactions (tx_hash, collection_id, attempt, raw_tx, created_at)
  select tx_hash, id, 1, raw_tx, updated_at from collections where raw_tx is not null;

drop index collections_open_idx;
alter table collections drop column raw_tx;
alter table collections drop column status;
create index collections_open_idx on collections (network, created_at)
  where phase in ('queued', 'signed', 'mined');

-- What each phase implies of the other columns, so a row can never say two things at once.
alter table collections add constraint collections_signed_check
  check (phase in ('queued', 'failed') or (nonce is not null and tx_hash is not null and attempts > 0));
alter table collections add constraint collections_queued_check
  check (phase <> 'queued' or (nonce is null and tx_hash is null and attempts = 0));
alter table collections add constraint collections_mined_check
  check (phase not in ('mined', 'confirmed') or block_hash is not null);
alter table collections add constraint collections_confirmed_check
  check ((phase = 'confirmed') = (confirmed_at is not null));
alter table collections add constraint collections_fee_cap_check
  check ((last_error = 'fee_cap') = (fee_needed is not null and fee_cap is not null));
-- One account's nonce belongs to one collection: two instances never store two for one nonce.
create unique index collections_nonce_idx on collections (network, signer, nonce) where signer is not null;

-- Which instance leads a network's collector, and since which term. A new leader raises the term;
-- every write of the collector locks this row and compares the term it holds, so an instance that
-- lost the lead (its advisory lock gone while it was signing) stores nothing.
create table collector_leases (
  network  text primary key,
  term     bigint not null,
  holder   text not null,
  since    timestamptz not null
);
