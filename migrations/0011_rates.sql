-- Exchange rates for invoices priced in other currencies (contract §19, issue 25): the last answer of
-- each rate source for each pair, shared by every instance, so a burst of lookups asks a source at
-- most once per PAYDESK_RATE_CACHE_SECONDS. A cache, not a record: an invoice will keep its own copy
-- of the rate it locked, and a row here older than the maximum age is never used.
create table rate_quotes (
  source      text not null,
  pair        text not null,
  -- What the source really quoted ("USD/EUR" when the ECB answers for USDT at par).
  quoted_pair text not null,
  value       numeric not null check (value > 0),
  -- When Paydesk received it, and when the source says the price held (staleness is judged on as_of).
  fetched_at  timestamptz not null,
  as_of       timestamptz not null,
  primary key (source, pair)
);
