import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hash,
  type Hex,
  http,
  parseAbi,
  parseSignature,
  TransactionNotFoundError,
  WaitForTransactionReceiptTimeoutError,
} from 'viem';
import { nonceManager, privateKeyToAccount } from 'viem/accounts';
import type { TransferAuthorization } from './typed-data.js';

/**
 * What the relayer asks of a chain. It signs one kind of transaction only: a payer's
 * transferWithAuthorization, sent to the token; so the key can move no money but its own gas. The key
 * stays in the viem account: errors thrown from here carry the node's revert reason or a closed word,
 * never the key or the RPC URL.
 */
export const EIP3009_ABI = parseAbi([
  'function balanceOf(address account) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
]);

export interface RelayerChain {
  readonly relayer: Address;
  /** The relayer's native balance, in wei. */
  nativeBalance(): Promise<bigint>;
  /** The node's gas price, in wei. */
  gasPrice(): Promise<bigint>;
  tokenBalance(token: Address, owner: Address): Promise<bigint>;
  used(token: Address, authorizer: Address, nonce: Hex): Promise<boolean>;
  /** Whether the node has the transaction, mined or waiting in its mempool. */
  knows(hash: Hash): Promise<boolean>;
  /** Runs the call against the node's newest block; throws SubmitError('rejected') with its revert reason. */
  simulate(token: Address, a: TransferAuthorization, signature: Hex): Promise<void>;
  /** Waits for the transaction's receipt: whether it succeeded; undefined when none came in `timeoutMs`. */
  mined(hash: Hash, timeoutMs: number): Promise<boolean | undefined>;
  /** Signs and sends; the transaction hash. */
  submit(token: Address, a: TransferAuthorization, signature: Hex): Promise<Hash>;
}

export type SubmitFailure = 'rejected' | 'no_gas' | 'unreachable';

export class SubmitError extends Error {
  constructor(
    readonly reason: SubmitFailure,
    /** The token's own words (its revert reason), safe to show the payer. */
    readonly detail: string | undefined,
  ) {
    super(`authorization not submitted: ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'SubmitError';
  }
}

const clients = new Map<string, RelayerChain>();

/** One relayer client per network, RPC URL and key: its nonce manager must see every send of this process. */
export function relayerChain(
  network: { name: string; chainId: number; rpcUrl: string },
  key: Hex,
): RelayerChain {
  const account = privateKeyToAccount(key, { nonceManager });
  const id = `${network.name} ${network.chainId} ${account.address}`;
  const cached = clients.get(id);
  if (cached) return cached;
  const chain = defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: { name: 'native', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [network.rpcUrl] } },
  });
  const transport = http(network.rpcUrl, { retryCount: 0, timeout: 15_000 });
  const reader = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ chain, transport, account });
  const call = (token: Address, a: TransferAuthorization, signature: Hex) => {
    const { v, r, s, yParity } = parseSignature(signature);
    const args = [
      a.from,
      a.to,
      a.value,
      a.validAfter,
      a.validBefore,
      a.nonce,
      Number(v ?? 27n + BigInt(yParity)),
      r,
      s,
    ] as const;
    return { address: token, abi: EIP3009_ABI, functionName: 'transferWithAuthorization' as const, args };
  };
  const relayer: RelayerChain = {
    relayer: account.address,
    nativeBalance: () => guard(() => reader.getBalance({ address: account.address })),
    gasPrice: () => guard(() => reader.getGasPrice()),
    tokenBalance: (token, owner) =>
      guard(() =>
        reader.readContract({ address: token, abi: EIP3009_ABI, functionName: 'balanceOf', args: [owner] }),
      ),
    used: (token, authorizer, nonce) =>
      guard(() =>
        reader.readContract({
          address: token,
          abi: EIP3009_ABI,
          functionName: 'authorizationState',
          args: [authorizer, nonce],
        }),
      ),
    knows: (hash) =>
      guard(async () => {
        try {
          await reader.getTransaction({ hash });
          return true;
        } catch (err) {
          if (err instanceof TransactionNotFoundError) return false;
          throw err;
        }
      }),
    mined: async (hash, timeoutMs) => {
      try {
        const receipt = await reader.waitForTransactionReceipt({
          hash,
          timeout: timeoutMs,
          pollingInterval: 250,
        });
        return receipt.status === 'success';
      } catch (err) {
        if (err instanceof WaitForTransactionReceiptTimeoutError) return undefined;
        throw new SubmitError('unreachable', undefined);
      }
    },
    simulate: async (token, a, signature) => {
      await guard(() => reader.simulateContract({ ...call(token, a, signature), account: account.address }));
    },
    submit: (token, a, signature) =>
      guard(async () => {
        const send = () => wallet.writeContract({ ...call(token, a, signature), chain });
        try {
          return await send();
        } catch (err) {
          // The nonce manager counts this process's sends; a chain that went back (a reorganisation)
          // or another sender of the key moves the account's nonce under it: count again, once.
          if (!(err instanceof BaseError) || !/nonce/i.test(err.message)) throw err;
          nonceManager.reset({ address: account.address, chainId: network.chainId });
          return await send();
        }
      }),
  };
  clients.set(id, relayer);
  return relayer;
}

/** Turns viem's errors into a SubmitError: the revert reason is kept, nothing else of the node's text. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof BaseError)) throw new SubmitError('unreachable', undefined);
    const reverted = err.walk(
      (e) => e instanceof ContractFunctionRevertedError,
    ) as ContractFunctionRevertedError | null;
    if (reverted) throw new SubmitError('rejected', reverted.reason?.slice(0, 200));
    if (/insufficient funds/i.test(err.message)) throw new SubmitError('no_gas', undefined);
    throw new SubmitError('unreachable', undefined);
  }
}
