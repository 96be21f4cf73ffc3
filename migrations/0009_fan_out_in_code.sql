-- The webhook fan-out moves out of the database (issue 21): which endpoints receive an event is decided
-- in src/webhooks/fan-out.ts, by the webhook workers, instead of by the events_fan_out trigger of
-- 0005/0006. Events are written as before, by whoever writes them; the fan-out takes the events it
-- has not handled yet (fanned_out_at is null), turns each into one pending delivery per endpoint that
-- subscribes to it, and marks it handled, in one transaction. Nothing is lost: a committed event is
-- fanned out by the next round of any instance, after a crash as after a restart.
drop trigger events_fan_out on events;
drop function events_fan_out();

-- Every event already here was fanned out by the trigger: the default marks them so without
-- rewriting the table; new events get null until the fan-out handles them.
alter table events add column fanned_out_at timestamptz default '-infinity';
alter table events alter column fanned_out_at drop default;

-- The order events were written in, so that an endpoint receives the events written after it was
-- added and none from before (what the trigger did by running at the event's insert). Existing rows
-- need none: they are fanned out already.
create sequence events_seq;
alter table events add column seq bigint;
alter table events alter column seq set default nextval('events_seq');
alter table webhook_endpoints add column events_after bigint not null default 0;

create index events_fan_out_due_idx on events (seq) where fanned_out_at is null;

-- New events wake the webhook workers of every instance at commit, as new deliveries do (0002).
create function events_wake() returns trigger language plpgsql as $$
begin
  perform pg_notify('paydesk_webhooks', '');
  return null;
end;
$$;
create trigger events_wake after insert on events for each statement execute function events_wake();
