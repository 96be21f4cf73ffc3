-- Solana (contract §24): the merchant's wallet receives payments straight into its associated token
-- accounts, so a project needs only its wallet address (a base58 ed25519 public key, on the curve).
alter table projects add column solana_address text;

-- Each Solana invoice keeps the wallet it was offered with (a later change of the project's never
-- moves it) and its Solana Pay reference: a 32-byte key unique to it, that the payer's transaction
-- carries as a read-only account. The watcher finds invoices by reference, one index probe per key
-- of a transaction; it watches the token accounts of the wallets of open Solana invoices.
alter table invoices add column solana_address text;
alter table invoices add column solana_reference text;
create unique index invoices_solana_reference on invoices (solana_reference) where solana_reference is not null;
create index invoices_solana_open on invoices (open_until, solana_address) where solana_reference is not null;

-- The Solana watcher's cursor, one per watched token account: the newest signature it has read
-- (getSignaturesForAddress answers newest first, `until` this one), and that transaction's slot.
-- Written in the same transaction as the payments it reported (observe's `alongside`).
create table solana_cursors (
  network text not null,
  account text not null,
  signature text not null,
  slot bigint not null,
  updated_at timestamptz not null,
  primary key (network, account)
);
