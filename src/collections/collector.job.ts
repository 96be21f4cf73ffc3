import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Job } from '../jobs/job.js';
import type { NetworkRegistry } from '../networks/network.js';
import { collectChannel } from './collection.js';

export interface CollectorJobDeps {
  db: Kysely<Database>;
  networks: NetworkRegistry;
  collectorKey: (network: string) => `0x${string}` | undefined;
  minUsd: string;
  clock: () => Date;
  log: FastifyBaseLogger;
}

/**
 * A collector for every watched EVM network with a collector key: an exclusive job (one instance signs
 * and sends a network's collections at a time, so nonces are handed out in one place), woken by
 * "Collect now" on any instance.
 */
export async function collectorJobs(deps: CollectorJobDeps): Promise<Job[]> {
  const networks = deps.networks.enabled().filter((n) => n.family === 'evm' && deps.collectorKey(n.name));
  if (networks.length === 0) return [];
  // viem is loaded only by processes that collect (or watch a chain).
  const [{ collectorChain }, { collectStep }] = await Promise.all([
    import('./chain.js'),
    import('./collector.js'),
  ]);
  return networks.map((network) => {
    const ctx = {
      db: deps.db,
      network,
      chain: collectorChain({
        rpcUrl: network.rpcUrl as string,
        headers: network.rpcHeaders,
        chainId: network.chainId,
        key: deps.collectorKey(network.name) as `0x${string}`,
      }),
      minUsd: deps.minUsd,
      now: deps.clock,
      log: deps.log,
    };
    return {
      name: `collect:${network.name}`,
      intervalMs: network.pollIntervalMs,
      wakeOn: collectChannel(network.name),
      exclusive: true,
      run: () => collectStep(ctx),
    };
  });
}
