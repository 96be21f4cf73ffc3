import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import type { Worker } from '../workers/loop.js';
import { advisoryLeadership, soleLeader } from './leadership.js';
import type { Network } from './networks.js';
import type { ScannedNetwork } from './scan.js';
import { startChainWatcher } from './watcher.js';

/** A watcher for every network with an RPC URL; one instance leads each network at a time. */
export async function startChainWatchers(deps: {
  database: DatabaseHandle;
  config: Config;
  log: FastifyBaseLogger;
  clock?: (() => Date) | undefined;
}): Promise<Worker[]> {
  const { database, config, log } = deps;
  const enabled = config.networks.enabled();
  if (enabled.length === 0) return [];
  // viem (the node client) is loaded only by processes that watch a chain.
  const { chainReader } = await import('./rpc.js');
  const leadership = database.kind === 'postgres' ? advisoryLeadership(config.databaseUrl) : soleLeader;
  const watchers = enabled.map((network) =>
    startChainWatcher({
      db: database.db,
      network: scanned(network),
      reader: chainReader(network.rpcUrl as string),
      now: deps.clock ?? (() => new Date()),
      publicBaseUrl: config.publicBaseUrl,
      pollIntervalMs: network.pollIntervalMs,
      leadership,
      log,
    }),
  );
  return [
    ...watchers,
    {
      wake: () => {},
      // Stops after the watchers have released their locks.
      stop: async () => {
        await Promise.all(watchers.map((w) => w.stop()));
        await leadership.close();
      },
    },
  ];
}

function scanned(network: Network): ScannedNetwork {
  const tokens = new Map(
    Object.entries(network.tokens).map(([currency, t]) => [
      currency,
      { address: t.address.toLowerCase(), decimals: t.decimals },
    ]),
  );
  return {
    name: network.name,
    confirmations: network.confirmations,
    maxBlockRange: network.maxBlockRange,
    tokens,
    decimals: new Map([...tokens.values()].map((t) => [t.address, t.decimals])),
  };
}
