-- Invoices priced in other currencies (contract §19, issue 25). An invoice in EUR, GBP, JPY … locks a
-- rate when it is made, and what its payments must reach is a token amount at that rate. The
-- lifecycle counts in tokens (USD, USDT and USDC at par), so every invoice gets its token amount:
-- for those made before, at par, the amount itself.
alter table invoices add column rate jsonb;
alter table invoices add column token_amount numeric(38, 18);
update invoices set token_amount = amount;
alter table invoices alter column token_amount set not null;
