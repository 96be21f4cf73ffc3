-- Payment methods (issue 22, contract §15): a project accepts several {network, currency} pairs, and
-- one invoice offers every one of them. EVM methods share one deposit address (the same on every EVM
-- network), TRON methods another; a payment names its network and token, and may be `unaccepted`.

-- Projects: the accepted methods, in the order the payment page offers them; one xpub per family; the
-- underpayment tolerance. A project of before keeps exactly what it accepted: its network's token.
alter table projects
  add column payment_methods jsonb,
  add column evm_xpub text,
  add column tron_xpub text,
  add column underpayment_tolerance_percent numeric(4, 2) not null default 0
    check (underpayment_tolerance_percent >= 0 and underpayment_tolerance_percent <= 50);
update projects set payment_methods = jsonb_build_array(jsonb_build_object('network', network, 'currency', currency));
alter table projects alter column payment_methods set not null;
-- The older single `xpub` belongs to the family of the project's network. Which family a network is in
-- is configuration (PAYDESK_NETWORKS may add TRON networks), so the application files it on start-up
-- (merchants/service.ts, fileLegacyXpubs); the column stays for that and for older readers.

-- Invoices: the methods offered when the invoice was made (a later change of the project's settings
-- does not change an open invoice), each with its address, and the addresses again in one column per
-- family, where the chain watchers find them by index.
alter table invoices
  add column payment_methods jsonb,
  add column evm_address text,
  add column evm_address_index bigint,
  add column tron_address text,
  add column tron_address_index bigint,
  add column underpayment_tolerance_percent numeric(4, 2) not null default 0;

-- `decimals` says how many decimals `amount_due` shows: the token's, at most 6. Every token Paydesk
-- knows has 6 or more, so 6 is what an invoice of before would show.
update invoices set
  payment_methods = jsonb_build_array(
    jsonb_build_object('network', network, 'currency', currency, 'pay_address', pay_address, 'decimals', 6)),
  evm_address = case when network <> 'sandbox' and pay_address like '0x%' then pay_address end,
  evm_address_index = case when network <> 'sandbox' and pay_address like '0x%' then address_index end,
  tron_address = case when pay_address like 'T%' then pay_address end,
  tron_address_index = case when pay_address like 'T%' then address_index end;
alter table invoices alter column payment_methods set not null;

-- With several methods, `network` and `pay_address` stay null until the first payment shows which was used.
alter table invoices alter column network drop not null;
alter table invoices alter column pay_address drop not null;

-- One address, one invoice, whatever the network: a transfer's recipient finds its invoice with one
-- index probe. Sandbox-only invoices have no chain address and are not in these indexes.
drop index invoices_network_address_idx;
create unique index invoices_evm_address_idx on invoices (evm_address) where evm_address is not null;
create unique index invoices_tron_address_idx on invoices (tron_address) where tron_address is not null;
alter table invoices drop column address_index;

-- Payments: which token they were made in, and the status of a known token this invoice does not accept.
-- One transaction may carry two tokens to one invoice: they are two payments.
alter table payments add column currency text;
update payments p set currency = i.currency from invoices i where i.id = p.invoice_id;
alter table payments alter column currency set not null;
alter table payments drop constraint payments_status_check;
alter table payments add constraint payments_status_check
  check (status in ('pending', 'confirmed', 'reversed', 'unaccepted'));
alter table payments drop constraint payments_pkey;
alter table payments add primary key (invoice_id, tx_hash, currency);
