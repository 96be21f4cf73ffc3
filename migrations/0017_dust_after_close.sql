-- Dust and money after close (issue 31, contract §21). Two more payment statuses, decided by the
-- lifecycle: `dust` (a payment too small to matter that does not complete the invoice: recorded, never
-- credited on its own) and `after_close` (a transfer to an invoice that is paid, failed, or expired
-- past its late window: recorded, never credited, refundable). Either is final once `confirmed_at`
-- is set; until then it is still confirming.
alter table payments drop constraint payments_status_check;
alter table payments add constraint payments_status_check
  check (status in ('pending', 'confirmed', 'reversed', 'unaccepted', 'dust', 'after_close'));

-- The dust threshold an invoice was made with (PAYDESK_DUST_PERCENT at the time), kept for its
-- lifetime as its underpayment tolerance is. Invoices made before get the default.
alter table invoices
  add column dust_percent numeric(4, 2) not null default 1
    check (dust_percent >= 0 and dust_percent <= 50);

-- What arrived after close and is final, in the invoice currency (at its locked rate, as amount_paid):
-- refunds may add up to amount_paid plus this (contract §18). Kept by the lifecycle's one writer.
alter table invoices add column amount_after_close numeric(38, 18) not null default 0;

-- A deposit to collect is a confirmed payment, or money after close once final (contract §16).
drop index payments_collectable_idx;
create index payments_collectable_idx on payments (network, invoice_id)
  where collection_id is null and status in ('confirmed', 'after_close') and confirmed_at is not null;
