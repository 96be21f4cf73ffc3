-- Deposit forwarders and collections (contract §16, issue 23).
--
-- A project with a payout address gets forwarder deposit addresses on EVM networks: CREATE2
-- addresses whose only destination is that payout (contracts/ForwarderFactory.sol). An invoice keeps
-- the payout its forwarder was computed with: a later change of the project's payout address never
-- moves where an existing forwarder's funds can go.
alter table projects add column payout_address text;
alter table invoices add column payout_address text;

-- A collection moves the confirmed deposits of one project on one network (and one payout) in one
-- transaction. It is created `pending` with the deposits it takes; the network's collector (one
-- leading instance per network) signs it, stores the signed transaction before sending it (so a
-- restart sends the same transaction again, never a second one), and follows it to `confirmed` or
-- `failed`.
create table collections (
  id            text primary key,
  project_id    text not null references projects (id),
  network       text not null,
  payout_address text not null,
  status        text not null check (status in ('pending', 'confirmed', 'failed')),
  -- Set once signed: the nonce, the transaction's hash and its raw bytes, sent again until mined.
  nonce         bigint,
  tx_hash       text,
  raw_tx        text,
  sent_at       timestamptz,
  -- What the receipt said: gas used, the block it is in (a reorganisation is seen by its hash).
  gas_used      bigint,
  block_number  bigint,
  block_hash    text,
  -- Why the last send failed (no gas for the collector, …): shown to the project's owner.
  last_error    text,
  created_at    timestamptz not null,
  confirmed_at  timestamptz,
  updated_at    timestamptz not null
);
create index collections_project_created_idx on collections (project_id, created_at desc, id desc);
create index collections_open_idx on collections (network, created_at) where status = 'pending';

-- Which collection swept a payment's funds; null while they are still in the forwarder. A collection
-- that fails gives its payments back (null again), so they are collected by a later one.
alter table payments add column collection_id text references collections (id);
-- When a collection last failed to move this payment's funds (its token refused the forwarder's
-- transfer): automatic collections leave it alone for a day, so a frozen deposit does not cost gas
-- every round; "Collect now" still tries it.
alter table payments add column sweep_failed_at timestamptz;
create index payments_collectable_idx on payments (network, invoice_id) where collection_id is null and status = 'confirmed';

-- What each network's collector last found (written by the instance leading it, read by the dashboard
-- to tell an owner why collection is off): `ok`, `no_factory`, `no_gas` or `unreachable`, and the
-- collector account's native balance (wei, as text).
create table collectors (
  network     text primary key,
  address     text not null,
  state       text not null,
  balance     text,
  checked_at  timestamptz not null
);
