import { readFileSync } from 'node:fs';
import type { Abi, Address, Hex } from 'viem';
import {
  deployFactory,
  PROXY_DEPLOYER,
  PROXY_DEPLOYER_FUNDING,
  PROXY_DEPLOYMENT_TX,
} from '../src/forwarders/deploy.js';
import type { LocalChain } from './chain.js';

/**
 * Puts the deterministic-deployment proxy on a local chain the way it reaches any new chain: fund its
 * one-time deployer, broadcast the presigned keyless transaction (Hardhat accepts it without a chain id).
 */
export async function installProxy(chain: LocalChain): Promise<void> {
  const funding = await chain.wallet.sendTransaction({ to: PROXY_DEPLOYER, value: PROXY_DEPLOYER_FUNDING });
  await chain.publicClient.waitForTransactionReceipt({ hash: funding });
  const hash = await chain.publicClient.sendRawTransaction({ serializedTransaction: PROXY_DEPLOYMENT_TX });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

/** The proxy, then the factory through it, paid by Hardhat account #0. */
export async function installFactory(chain: LocalChain): Promise<Address> {
  await installProxy(chain);
  return (await deployFactory(chain.publicClient, chain.wallet)).address;
}

const HOSTILE = JSON.parse(readFileSync(new URL('./chain/HostileTokens.json', import.meta.url), 'utf8'));
export type Hostile = 'TetherLike' | 'FalseToken' | 'RevertingToken' | 'ReentrantToken' | 'GasBurner';
export const hostileAbi = (name: Hostile): Abi => HOSTILE.contracts[name].abi;

/** Deploys one of test/chain/HostileTokens.sol's tokens (compiled by `npm run contracts:compile`). */
export async function deployHostile(
  chain: LocalChain,
  name: Hostile,
  args: unknown[] = [],
): Promise<Address> {
  const hash = await chain.wallet.deployContract({
    abi: hostileAbi(name),
    bytecode: HOSTILE.contracts[name].bytecode as Hex,
    args,
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error(`deploying ${name} created no contract`);
  return receipt.contractAddress;
}
