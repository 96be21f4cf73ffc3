import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { randomBase62 } from '../ids.js';
import type { Job } from '../jobs/job.js';
import type { Network, NetworkRegistry } from '../networks/network.js';
import { collectChannel } from './collection.js';
import type { CollectorContext } from './context.js';
import { gweiToWei } from './fees.js';

export interface CollectorJobDeps {
  db: Kysely<Database>;
  networks: NetworkRegistry;
  collectorKey: (network: string) => `0x${string}` | undefined;
  minUsd: string;
  minDepositUsd: string;
  replaceBlocks: number;
  maxFeeGwei: string | undefined;
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
  const { collectStep } = await import('./collector.js');
  const holder = `${hostname()}:${process.pid}:${randomBase62(8)}`;
  return Promise.all(
    networks.map(async (network) => {
      const ctx = await collectorContext(deps, network, holder);
      return {
        name: `collect:${network.name}`,
        intervalMs: network.pollIntervalMs,
        wakeOn: collectChannel(network.name),
        exclusive: true,
        run: () => collectStep(ctx),
      };
    }),
  );
}

/** One network's collector on this instance (`holder` names the instance in the collector lease). */
export async function collectorContext(
  deps: CollectorJobDeps,
  network: Network,
  holder: string,
): Promise<CollectorContext> {
  const { collectorChain } = await import('./chain.js');
  return {
    db: deps.db,
    network,
    chain: collectorChain({
      rpcUrl: network.rpcUrl as string,
      headers: network.rpcHeaders,
      chainId: network.chainId,
      key: deps.collectorKey(network.name) as `0x${string}`,
    }),
    minUsd: deps.minUsd,
    minDepositUsd: deps.minDepositUsd,
    replaceBlocks: deps.replaceBlocks,
    maxFeeWei: deps.maxFeeGwei === undefined ? undefined : gweiToWei(deps.maxFeeGwei),
    holder,
    now: deps.clock,
    log: deps.log,
  };
}
