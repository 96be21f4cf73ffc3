import { randomBytes } from 'node:crypto';
import { type Address, getAddress, type Hex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { typedData } from '../src/gasless/typed-data.js';
import type { TestApp } from './app.js';
import type { LocalChain } from './chain.js';
import type { ChainTokens } from './chain-app.js';
import { LOCAL } from './chain-app.js';
import { USDC_LIKE_ABI } from './usdc-like.js';

/** The local chain with the USDC-like token as a gasless USDC (contract §23): its EIP-712 domain. */
export function gaslessNetworkEnv(
  chain: LocalChain,
  tokens: ChainTokens,
  confirmations = 3,
): Record<string, string> {
  return {
    PAYDESK_NETWORKS: JSON.stringify([
      {
        name: LOCAL,
        label: 'Local chain',
        chainId: chain.chainId,
        testnet: true,
        confirmations,
        pollIntervalMs: 100,
        maxBlockRange: 100,
        tokens: {
          USDT: { address: tokens.usdt, decimals: 6 },
          USDC: { address: tokens.usdc, decimals: 6, eip3009: { name: 'USD-like test coin', version: '2' } },
        },
      },
    ]),
    PAYDESK_RPC_LOCALCHAIN: chain.rpcUrl,
  };
}

/** A payer with USDC-like tokens and no native coin at all. */
export async function gaslessPayer(
  chain: LocalChain,
  usdc: Address,
  units: bigint,
): Promise<PrivateKeyAccount> {
  const payer = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`);
  const hash = await chain.wallet.writeContract({
    address: usdc,
    abi: USDC_LIKE_ABI,
    functionName: 'mint',
    args: [payer.address, units],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
  return payer;
}

export interface Signed {
  network: string;
  authorization: Record<string, string>;
  signature: Hex;
}

/** What a wallet signs for an invoice, with any field changed, and the body the page posts. */
export async function signAuthorization(
  payer: PrivateKeyAccount,
  chain: LocalChain,
  usdc: Address,
  fields: { to: Address; value: bigint; validBefore: bigint; nonce: Hex; validAfter?: bigint },
  signer: PrivateKeyAccount = payer,
): Promise<Signed> {
  const message = {
    from: payer.address,
    to: getAddress(fields.to),
    value: fields.value,
    validAfter: fields.validAfter ?? 0n,
    validBefore: fields.validBefore,
    nonce: fields.nonce,
  };
  const signature = await signer.signTypedData(
    typedData({ name: 'USD-like test coin', version: '2' }, chain.chainId, usdc, message),
  );
  return {
    network: LOCAL,
    authorization: Object.fromEntries(Object.entries(message).map(([k, v]) => [k, String(v)])),
    signature,
  };
}

/** Each post from another client address: the route's rate limit is tested on its own. */
export const postAuthorization = (t: TestApp, id: string, body: unknown, ip = randomIp()) =>
  t.app.inject({
    method: 'POST',
    url: `/pay/${id}/authorizations`,
    payload: body as object,
    remoteAddress: ip,
  });

const randomIp = () => `10.${[...randomBytes(3)].join('.')}`;
