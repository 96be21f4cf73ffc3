import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { NetworkRegistry } from '../networks/network.js';
import { SANDBOX } from '../networks/network.js';
import { rpcVariable } from '../networks/rpc-settings.js';
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
}

/**
 * Sandbox (always watched: its payments are made by hand), then every network of the registry.
 * A network without an RPC URL is `unwatched`; one whose watcher found its node behind the blocks
 * Paydesk has already read is `lagging` (recorded by the watcher, so every instance answers alike).
 */
export async function networkWatches(
  db: Kysely<Database>,
  networks: NetworkRegistry,
): Promise<NetworkWatch[]> {
  const lags = new Map((await repo.lags(db)).map((l) => [l.network, l]));
  const chains = networks.all().map((n): NetworkWatch => {
    if (n.rpcUrl === undefined) {
      const reason = `no RPC URL is configured (${rpcVariable(n.name)})`;
      return { network: n.name, status: 'unwatched', reason, since: null };
    }
    const lag = lags.get(n.name);
    if (lag?.lag_reason) {
      return { network: n.name, status: 'lagging', reason: lag.lag_reason, since: lag.lagging_since };
    }
    return { network: n.name, status: 'ok', reason: null, since: null };
  });
  return [{ network: SANDBOX, status: 'ok', reason: null, since: null }, ...chains];
}
