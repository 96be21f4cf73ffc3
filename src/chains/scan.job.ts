import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Job } from '../jobs/job.js';
import { accountHex, FAMILY, type XpubFamily } from '../networks/family.js';
import { isTestNetwork } from '../networks/livemode.js';
import type { Currency, Network, NetworkRegistry } from '../networks/network.js';
import { type ScannedNetwork, scanStep } from './scan.js';

export interface ChainJobDeps {
  db: Kysely<Database>;
  networks: NetworkRegistry;
  publicBaseUrl: string;
  clock: () => Date;
}

/**
 * A watcher for every network with an RPC URL: an exclusive job (one instance leads each network at a
 * time; the others stand by), run again at once while it is behind the chain's head.
 */
export async function chainScanJobs(deps: ChainJobDeps): Promise<Job[]> {
  // Solana networks have a watcher of their own (src/solana/scan.job.ts).
  const enabled = deps.networks.enabled().filter((n) => n.family !== 'solana');
  if (enabled.length === 0) return [];
  // viem (the node client, some 25 MB) is loaded only by processes that watch a chain.
  const { chainReader } = await import('./rpc.js');
  return enabled.map((network) => {
    const ctx = {
      db: deps.db,
      network: scanned(network, deps.networks),
      reader: chainReader(network.rpcUrl as string, {
        family: FAMILY[network.family],
        headers: network.rpcHeaders,
      }),
      now: deps.clock,
      publicBaseUrl: deps.publicBaseUrl,
    };
    return {
      name: `chain-scan:${network.name}`,
      intervalMs: network.pollIntervalMs,
      exclusive: true,
      run: () => scanStep(ctx),
    };
  });
}

/** Token contracts as JSON-RPC names them in every family: 20-byte lower-case hex (a T… address without its 41). */
function scanned(network: Network, networks: NetworkRegistry): ScannedNetwork {
  const family = FAMILY[network.family];
  const tokens = new Map(
    Object.entries(network.tokens).map(([currency, t]) => [
      currency,
      { address: accountHex(family, t.address), decimals: t.decimals },
    ]),
  );
  return {
    name: network.name,
    family: network.family as XpubFamily,
    test: isTestNetwork(networks, network.name),
    confirmations: network.confirmations,
    maxBlockRange: network.maxBlockRange,
    tokens,
    byContract: new Map(
      [...tokens].map(([currency, t]) => [
        t.address,
        { currency: currency as Currency, decimals: t.decimals },
      ]),
    ),
  };
}
