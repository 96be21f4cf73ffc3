-- The delivery worker claims each endpoint's due deliveries in order, up to a small per-endpoint cap
-- (so that a slow receiver cannot take every slot). This index answers "the next due deliveries of
-- endpoint X" without reading the endpoint's delivered history or the other endpoints' queues.
create index webhook_deliveries_endpoint_due_idx
  on webhook_deliveries (endpoint_id, next_attempt_at)
  where status = 'pending';
