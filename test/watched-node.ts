import { inject } from 'vitest';
import { rpcVariable } from '../src/networks/rpc-settings.js';

/**
 * RPC URLs that make `networks` watched (contract §21: only a network whose node has answered is
 * offered to payers): the run's shared Hardhat node (test/global-setup.ts), which has the forwarder
 * factory. For tests about invoices and pages on those networks, not about reading their chain: a
 * test of payments starts a chain of its own (test/chain.ts).
 */
export function watchedRpc(...networks: string[]): Record<string, string> {
  const url = inject('sharedNodeUrl');
  return Object.fromEntries(networks.map((network) => [rpcVariable(network), url]));
}

/** The built-in networks, mainnets and testnets (tests of livemode use both), all watched through the shared node. */
export const watchedBuiltins = () =>
  watchedRpc(
    'ethereum',
    'polygon',
    'bsc',
    'arbitrum',
    'base',
    'sepolia',
    'polygon-amoy',
    'bsc-testnet',
    'arbitrum-sepolia',
    'base-sepolia',
    'tron',
    'tron-nile',
  );
