-- Signed transfers (EIP-3009 transferWithAuthorization) that Paydesk accepted for an invoice and
-- submitted with its relayer key (contract §23): from the payment page's wallet button
-- (POST /pay/{id}/authorizations) or an x402 client (GET /pay/{id} with PAYMENT-SIGNATURE).
-- The chain watcher reads it to tell which invoice an AuthorizationUsed(authorizer, nonce) event
-- pays: the transfer goes straight to the payout address, not to the invoice's own address. The key
-- is what the token itself keys an authorization by (its contract, the authorizer, the nonce), so
-- the same authorization is recorded once, whoever submits it and however often.
create table gasless_authorizations (
  network text not null,
  token text not null,
  authorizer text not null,
  nonce text not null,
  invoice_id text not null references invoices (id),
  payee text not null,
  value numeric(78, 0) not null,
  valid_before timestamptz not null,
  -- 'page' (the wallet button) or 'x402'.
  source text not null check (source in ('page', 'x402')),
  tx_hash text,
  created_at timestamptz not null,
  primary key (network, token, authorizer, nonce)
);

create index gasless_authorizations_open on gasless_authorizations (network, valid_before);
create index gasless_authorizations_invoice on gasless_authorizations (invoice_id);
