-- Live and test never mix (issue 31, contract §21). An invoice is live or test from the moment it is
-- made, and stays so whatever becomes of its project's methods or the network configuration: its
-- refunds and the collections of its deposits carry the same flag. From now on the code decides it
-- (src/networks/livemode.ts) with the network registry.
--
-- Rows made before: a migration cannot read PAYDESK_NETWORKS, so what is test is what Paydesk ships
-- as test (the sandbox and the built-in testnets); any other network counts as live, the safe side (a
-- live invoice takes no simulated or testnet payment). An invoice is live when any of its methods is.
alter table invoices add column livemode boolean;
update invoices set livemode = exists (
  select 1 from jsonb_array_elements(payment_methods) as m
  where m ->> 'network' not in
    ('sandbox', 'sepolia', 'polygon-amoy', 'bsc-testnet', 'arbitrum-sepolia', 'base-sepolia', 'tron-nile')
);
-- Live unless said otherwise: a row written without it (a hand-made one) takes no test money.
alter table invoices alter column livemode set not null, alter column livemode set default true;

alter table refunds add column livemode boolean;
update refunds set livemode = invoices.livemode from invoices where invoices.id = refunds.invoice_id;
alter table refunds alter column livemode set not null;

alter table collections add column livemode boolean;
update collections set livemode = network not in
  ('sepolia', 'polygon-amoy', 'bsc-testnet', 'arbitrum-sepolia', 'base-sepolia', 'tron-nile');
alter table collections alter column livemode set not null;
