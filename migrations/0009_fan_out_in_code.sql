-- The webhook fan-out moves out of the database (issue 21): which endpoints receive an event is decided
-- in src/webhooks/fan-out.ts, by the webhook workers, instead of by the events_fan_out trigger of
-- 0005/0006. Events are written as before, by whoever writes them, with nothing more to do per event.
-- The fan-out reads them in the order their transactions can no longer change (below), turns each
-- into one pending delivery per endpoint that subscribes to it, and moves its cursor, in one
-- transaction. Nothing is lost: a committed event is fanned out by the next round of any instance,
-- after a crash as after a restart; nothing is handed out twice: the cursor moves with the deliveries.
drop trigger events_fan_out on events;
drop function events_fan_out();

-- The writing transaction of each event, and the order of events within it. The fan-out takes events
-- only from transactions older than every transaction still running (pg_snapshot_xmin): no event can
-- still appear below its cursor, whatever order transactions commit in (a transactional outbox read
-- by transaction id). Existing rows keep null: the trigger fanned them out already.
alter table events add column xid xid8;
alter table events alter column xid set default pg_current_xact_id();
create sequence events_seq;
alter table events add column seq bigint;
alter table events alter column seq set default nextval('events_seq');
create index events_fan_out_idx on events (xid, seq) where xid is not null;

create table webhook_fan_out (
  only_row  boolean primary key default true check (only_row),
  xid       xid8 not null,
  seq       bigint not null
);
insert into webhook_fan_out (xid, seq) values ('0', 0);

-- An endpoint receives the events written after it was added (what the trigger did by running at
-- the event's insert): events whose seq is above this. Existing endpoints receive every new event.
alter table webhook_endpoints add column events_after bigint not null default 0;

-- New events wake the webhook workers of every instance at commit, as new deliveries do (0002).
create function events_wake() returns trigger language plpgsql as $$
begin
  perform pg_notify('paydesk_webhooks', '');
  return null;
end;
$$;
create trigger events_wake after insert on events for each statement execute function events_wake();
