-- Rates must be plausible (issue 31, contract §21). The last rate that priced an invoice, per pair
-- ("USDT/EUR"), for every instance: a fresh rate that moved more than PAYDESK_RATE_MAX_JUMP_PERCENT
-- from it (if it was used in the past 24 h) prices only when a second source agrees. One row a pair,
-- the newest use wins; invoices keep their own locked rate, this is only the reference.
create table rate_used (
  pair     text primary key,
  value    numeric not null check (value > 0),
  used_at  timestamptz not null
);
