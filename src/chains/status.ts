import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { NetworkRegistry } from '../networks/network.js';
import { SANDBOX } from '../networks/network.js';
import type { ForwarderStatus, Watching } from '../watch/watched.js';
import * as repo from './repository.js';

export const WATCH_STATUSES = ['ok', 'lagging', 'unwatched'] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

/** How Paydesk watches a network right now (contract §21), as /v1/health shows it. */
export interface NetworkWatch {
  network: string;
  status: WatchStatus;
  /** Why it is not `ok`, in words; null when it is. */
  reason: string | null;
  /** Since when it has been `lagging`; null otherwise. */
  since: Date | null;
  /** On a watched EVM network, whether forwarder addresses can be offered there; null elsewhere. */
  forwarders: ForwarderStatus | null;
}

/**
 * Sandbox (always watched: its payments are made by hand), then every network of the registry.
 * A network without an RPC URL, or whose node has not answered this instance since it started, is
 * `unwatched` (watched.ts); one whose watcher found its node behind the blocks
 * Paydesk has already read is `lagging` (recorded by the watcher, so every instance answers alike).
 */
export async function networkWatches(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  watching: Watching,
): Promise<NetworkWatch[]> {
  const lags = new Map((await repo.lags(db)).map((l) => [l.network, l]));
  const chains = networks.all().map((n): NetworkWatch => {
    const reason = watching.unwatched(n.name);
    if (reason !== null)
      return { network: n.name, status: 'unwatched', reason, since: null, forwarders: null };
    const forwarders = n.family === 'evm' ? watching.forwarders(n.name) : null;
    const lag = lags.get(n.name);
    if (lag?.lag_reason) {
      const since = lag.lagging_since;
      return { network: n.name, status: 'lagging', reason: lag.lag_reason, since, forwarders };
    }
    return { network: n.name, status: 'ok', reason: null, since: null, forwarders };
  });
  return [{ network: SANDBOX, status: 'ok', reason: null, since: null, forwarders: null }, ...chains];
}
