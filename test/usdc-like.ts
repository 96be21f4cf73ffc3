import { readFileSync } from 'node:fs';
import type { Abi, Address, Hex } from 'viem';
import type { LocalChain } from './chain.js';

const ARTIFACT = JSON.parse(readFileSync(new URL('./chain/UsdcLike.json', import.meta.url), 'utf8'));
/** The token's ABI; call it at the proxy's address. */
export const USDC_LIKE_ABI: Abi = ARTIFACT.contracts.UsdcLike.abi;
export const USDC_LIKE_PROXY_ABI: Abi = ARTIFACT.contracts.UsdcLikeProxy.abi;

// The proxy's admin cannot use the token through it (as with FiatTokenProxy), so by default it is an
// address nobody sends from.
const NO_ONE = '0x000000000000000000000000000000000000a11e';

export interface UsdcLikeToken {
  /** The proxy: the token's address. */
  address: Address;
  implementation: Address;
}

/**
 * Deploys test/chain/UsdcLike.sol's implementation and a proxy in front of it (compiled by
 * `npm run contracts:compile`), paid by Hardhat account #0.
 */
export async function deployUsdcLike(chain: LocalChain, admin: Address = NO_ONE): Promise<UsdcLikeToken> {
  const deploy = async (name: 'UsdcLike' | 'UsdcLikeProxy', args: unknown[]) => {
    const { abi, bytecode } = ARTIFACT.contracts[name] as { abi: Abi; bytecode: Hex };
    const hash = await chain.wallet.deployContract({ abi, bytecode, args });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error(`deploying ${name} created no contract`);
    return receipt.contractAddress;
  };
  const implementation = await deploy('UsdcLike', []);
  return { address: await deploy('UsdcLikeProxy', [implementation, admin]), implementation };
}

/** The EIP-712 domain of the USDC-like token at `token` (its `name()` and version "2"). */
export const usdcLikeDomain = (token: Address, chainId: number) => ({
  name: 'USD-like test coin',
  version: '2',
  chainId,
  verifyingContract: token,
});
