import {
  type Account,
  type Address,
  type Chain,
  concat,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { DEPLOYMENT_PROXY, FACTORY_ADDRESS, FACTORY_SALT } from './address.js';
import { FACTORY_BYTECODE } from './artifact.js';

export { DEPLOYMENT_PROXY, FACTORY_ADDRESS, FACTORY_SALT } from './address.js';
/** The proxy's one-time deployer (recovered from the presigned transaction's fixed signature). */
export const PROXY_DEPLOYER: Address = '0x3fab184622dc19b6109349b94811493bf2a45362';
/** What the deployer must hold: 100,000 gas at 100 gwei. */
export const PROXY_DEPLOYER_FUNDING = 10n ** 16n;
/** Pre-EIP-155 (no chain id), so one transaction serves every chain that still accepts such. */
export const PROXY_DEPLOYMENT_TX: Hex =
  '0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222';

export class FactoryDeployError extends Error {}

export type DeployResult =
  | { status: 'already-deployed'; address: Address }
  | { status: 'deployed'; address: Address; txHash: Hash; gasUsed: bigint };

/**
 * Deploys the factory through the proxy unless it is already there; then it sends nothing. The sender
 * only pays gas: the proxy's CREATE2 puts the same code at the same address whoever sends it.
 */
export async function deployFactory(
  publicClient: PublicClient,
  wallet: WalletClient<Transport, Chain, Account>,
): Promise<DeployResult> {
  if (await hasCode(publicClient, FACTORY_ADDRESS)) {
    return { status: 'already-deployed', address: FACTORY_ADDRESS };
  }
  if (!(await hasCode(publicClient, DEPLOYMENT_PROXY))) throw new FactoryDeployError(PROXY_MISSING);
  const txHash = await wallet.sendTransaction({
    to: DEPLOYMENT_PROXY,
    data: concat([FACTORY_SALT, FACTORY_BYTECODE]),
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: txHash });
  // The proxy answers a failed CREATE2 with a revert; check the code anyway, it is what counts.
  if (receipt.status !== 'success' || !(await hasCode(publicClient, FACTORY_ADDRESS))) {
    throw new FactoryDeployError(`the deployment transaction ${txHash} did not create the factory`);
  }
  return { status: 'deployed', address: FACTORY_ADDRESS, txHash, gasUsed: receipt.gasUsed };
}

async function hasCode(publicClient: PublicClient, address: Address): Promise<boolean> {
  const code = await publicClient.getCode({ address });
  return code !== undefined && code !== '0x';
}

const PROXY_MISSING =
  `the deterministic-deployment proxy ${DEPLOYMENT_PROXY} is not on this chain. Anyone can put it ` +
  `there: send ${PROXY_DEPLOYER_FUNDING} wei of the native coin to ${PROXY_DEPLOYER}, then broadcast ` +
  'its presigned transaction (PROXY_DEPLOYMENT_TX in src/forwarders/deploy.ts, e.g. `cast publish 0xf8a5…`). ' +
  'If the chain refuses transactions without a chain id (EIP-155), ask its operators: most chains ' +
  'have the proxy preinstalled. See docs/forwarders.md.';
