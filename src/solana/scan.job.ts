import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Job } from '../jobs/job.js';
import { isTestNetwork } from '../networks/livemode.js';
import type { Currency, Network, NetworkRegistry } from '../networks/network.js';
import { solanaReader } from './rpc.js';
import { type SolanaNetwork, solanaScanStep } from './scan.js';

export interface SolanaJobDeps {
  db: Kysely<Database>;
  networks: NetworkRegistry;
  publicBaseUrl: string;
  clock: () => Date;
}

/** A watcher for every Solana network with an RPC URL: an exclusive job, as the chain watchers are. */
export function solanaScanJobs(deps: SolanaJobDeps): Job[] {
  return deps.networks
    .enabled()
    .filter((n) => n.family === 'solana')
    .map((network) => {
      const ctx = {
        db: deps.db,
        network: watchedNetwork(network, deps.networks),
        reader: solanaReader(network.rpcUrl as string, network.rpcHeaders),
        now: deps.clock,
        publicBaseUrl: deps.publicBaseUrl,
      };
      return {
        name: `solana-scan:${network.name}`,
        intervalMs: network.pollIntervalMs,
        exclusive: true,
        run: () => solanaScanStep(ctx),
      };
    });
}

export function watchedNetwork(network: Network, networks: NetworkRegistry): SolanaNetwork {
  return {
    name: network.name,
    test: isTestNetwork(networks, network.name),
    mints: new Map(
      Object.entries(network.tokens).map(([currency, t]) => [
        t.address,
        { currency: currency as Currency, decimals: t.decimals },
      ]),
    ),
  };
}
