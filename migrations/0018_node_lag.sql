-- A node that lags is not a reorganisation (issue 31, contract §21). When the node a watcher reads
-- does not yet know the block under its cursor (or its head is below it), the watcher waits and says
-- so here, for /v1/health on every instance: since when, and why. Both null while the node keeps up.
-- Written only by the network's watcher, as the rest of its row.
alter table chain_cursors add column lagging_since timestamptz;
alter table chain_cursors add column lag_reason text;
