-- One owner for payments (issue 9). Payments belong to the invoices module: the chain watchers keep
-- only their cursor and block hashes, and find their payments again by the block stored with them.
-- The lifecycle's schedule is stored rather than re-derived in SQL, and events are always written:
-- they are each invoice's history, and the webhooks' outbox.

alter table payments
  add column network       text,
  add column block_number  bigint,
  add column block_hash    text;

update payments p set network = i.network from invoices i where i.id = p.invoice_id;

-- The chain watchers' transfers were a second record of the same payments; the payment row's status
-- is the one the lifecycle owns, so only the block is carried over.
update payments p set block_number = t.block_number, block_hash = t.block_hash
from chain_transfers t
where t.invoice_id = p.invoice_id and t.tx_hash = p.tx_hash;

alter table payments alter column network set not null;
drop table chain_transfers;

-- "Payments still confirming up to block N" and "standing above the common ancestor" both walk this.
create index payments_block_idx on payments (network, block_number)
  where block_number is not null and status <> 'reversed';

-- lifecycle.schedule(): when the passing of time next changes the invoice (the expiry job's queue), and
-- until when a payment to it still counts (the chain watchers' filter). Computed by the lifecycle and
-- stored on every change; this migration computes them once for the rows that exist.
alter table invoices
  add column due_at      timestamptz,
  add column open_until  timestamptz;

update invoices set
  due_at = case
    when status <> 'pending' then null
    when awaiting_confirmation then payment_expires_at + interval '24 hours'
    else payment_expires_at
  end,
  open_until = case
    when status in ('pending', 'expired') then payment_expires_at + interval '24 hours'
  end;

drop index invoices_expiry_idx;
alter table invoices drop column awaiting_confirmation;
create index invoices_due_idx on invoices (due_at) where due_at is not null;

-- Deliveries are fanned out from events by the database: one pending delivery per active endpoint of
-- the project that subscribes to the event's type (no `events` list means all), committed with the
-- event or not at all. The invoices module writes events without knowing that webhooks exist.
create function events_fan_out() returns trigger language plpgsql as $$
begin
  insert into webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at, updated_at)
  select ev.id, e.id, 'pending', ev.created_at, ev.created_at, ev.created_at
  from new_events ev
  join webhook_endpoints e
    on e.project_id = ev.project_id
   and e.status = 'active'
   and e.deleted_at is null
   and (cardinality(e.events) = 0 or ev.type = any(e.events));
  return null;
end;
$$;

create trigger events_fan_out
  after insert on events referencing new table as new_events
  for each statement execute function events_fan_out();
