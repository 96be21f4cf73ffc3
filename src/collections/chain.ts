import {
  type Address,
  createPublicClient,
  decodeEventLog,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  keccak256,
  parseTransaction,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { FACTORY_ADDRESS } from '../forwarders/address.js';
import { FACTORY_ABI } from '../forwarders/artifact.js';
import type { Fees, Market } from './fees.js';

/**
 * What the collector asks of a chain, and nothing else: viem is loaded only by processes that collect
 * (collector.job.ts imports this lazily). The key is held by the viem account and never leaves it:
 * errors thrown from here name a closed reason, never the key, the RPC URL or the node's text.
 */

export interface CollectCall {
  payout: Address;
  items: ReadonlyArray<{ salt: Hex; token: Address }>;
  /** How many of the first items' forwarders were never deployed (the factory's gas hint). */
  fresh: number;
}

export interface Mined {
  success: boolean;
  blockNumber: bigint;
  blockHash: Hash;
  gasUsed: bigint;
  /** SweepFailed(forwarder, token) of the transaction: deposits left where they were. */
  failed: Array<{ forwarder: Address; token: Address }>;
}

/** Why a send did not go through: a closed set, shown to the project's owner and logged. */
export type SendFailure = 'no_gas' | 'rejected' | 'unreachable';

export class SendError extends Error {
  constructor(readonly reason: SendFailure) {
    super(`collection not sent: ${reason}`);
    this.name = 'SendError';
  }
}

export interface CollectorChain {
  readonly collector: Address;
  factoryDeployed(): Promise<boolean>;
  /** An account's (the collector's by default) next nonce counting the mempool, and counting mined transactions only. */
  nonces(account?: Address): Promise<{ pending: number; mined: number }>;
  /** The next block's base fee and the node's suggested tip. */
  market(): Promise<Market>;
  head(): Promise<bigint>;
  /** The collector's native balance, in wei. */
  balance(): Promise<bigint>;
  /** Signs a collection at `nonce`; throws SendError('no_gas') when the gas cannot be estimated for want of funds. */
  sign(call: CollectCall, nonce: number, fees: Fees): Promise<{ raw: Hex; hash: Hash }>;
  /** The same transaction (nonce, call, gas) signed again with other fees: a replacement. */
  resign(raw: Hex, fees: Fees): Promise<{ raw: Hex; hash: Hash }>;
  /** Broadcasts a signed transaction; sending one the node already has is not an error. */
  send(raw: Hex): Promise<void>;
  receipt(hash: Hash): Promise<Mined | undefined>;
}

export function collectorChain(o: {
  rpcUrl: string;
  headers?: Record<string, string> | undefined;
  chainId: number;
  key: Hex;
}): CollectorChain {
  const account = privateKeyToAccount(o.key);
  const client = createPublicClient({
    transport: http(o.rpcUrl, { retryCount: 0, fetchOptions: { headers: o.headers } }),
    cacheTime: 0,
  });
  return {
    collector: account.address,
    ...reads(client, account.address),
    ...writes(client, account, o.chainId),
  };
}

type Client = ReturnType<typeof createPublicClient>;
type Account = ReturnType<typeof privateKeyToAccount>;

function reads(client: Client, collector: Address) {
  return {
    async factoryDeployed() {
      const code = await client.getCode({ address: FACTORY_ADDRESS }).catch(unreachable);
      return code !== undefined && code !== '0x';
    },
    async nonces(address: Address = collector) {
      const [pending, mined] = await Promise.all([
        client.getTransactionCount({ address, blockTag: 'pending' }),
        client.getTransactionCount({ address, blockTag: 'latest' }),
      ]).catch(unreachable);
      return { pending, mined };
    },
    async market() {
      // The pending block carries the next block's base fee (latest's, on a node without one).
      const [block, tip] = await Promise.all([
        client.getBlock({ blockTag: 'pending' }).catch(() => client.getBlock({ blockTag: 'latest' })),
        client.estimateMaxPriorityFeePerGas(),
      ]).catch(unreachable);
      return { baseFee: block.baseFeePerGas ?? 0n, tip };
    },
    head: () => client.getBlockNumber({ cacheTime: 0 }).catch(unreachable),
    balance: () => client.getBalance({ address: collector }).catch(unreachable),
    async receipt(hash: Hash): Promise<Mined | undefined> {
      const r = await client.getTransactionReceipt({ hash }).catch((err) => {
        if ((err as Error).name === 'TransactionReceiptNotFoundError') return undefined;
        return unreachable(err);
      });
      if (!r) return undefined;
      const { status, blockNumber, blockHash, gasUsed } = r;
      return { success: status === 'success', blockNumber, blockHash, gasUsed, failed: sweepsFailed(r.logs) };
    },
  };
}

function writes(client: Client, account: Account, chainId: number) {
  const signed = async (tx: { to: Address; data: Hex; nonce: number; gas: bigint }, fees: Fees) => {
    const raw = await account.signTransaction({ chainId, type: 'eip1559', ...tx, ...fees });
    return { raw, hash: keccak256(raw) };
  };
  return {
    async sign(call: CollectCall, nonce: number, fees: Fees) {
      const data = encodeFunctionData({
        abi: FACTORY_ABI,
        functionName: 'collect',
        args: [call.payout, call.items, BigInt(call.fresh)],
      });
      const estimate = await client
        .estimateGas({ account: account.address, to: FACTORY_ADDRESS, data })
        .catch(sendFailure);
      // A margin over the estimate: the factory reverts as a whole (NotEnoughGas) rather than marking
      // a deposit failed when short, so too little gas costs a retry, never a deposit.
      const gas = (estimate * 5n) / 4n + 30_000n;
      return signed({ to: FACTORY_ADDRESS, data, nonce, gas }, fees);
    },
    async resign(raw: Hex, fees: Fees) {
      const old = parseTransaction(raw);
      if (old.to == null || old.nonce === undefined || old.gas === undefined) throw new SendError('rejected');
      return signed({ to: old.to, data: old.data ?? '0x', nonce: old.nonce, gas: old.gas }, fees);
    },
    async send(raw: Hex) {
      try {
        await client.sendRawTransaction({ serializedTransaction: raw });
      } catch (err) {
        const text = String((err as { details?: unknown }).details ?? (err as Error).message).toLowerCase();
        // The node has it already, or mined it: what a second send of one signed transaction meets.
        if (/already known|known transaction|nonce too low|already imported/.test(text)) return;
        sendFailure(err);
      }
    },
  };
}

/** SweepFailed(forwarder, token) events of the factory in a receipt's logs: deposits left where they were. */
function sweepsFailed(logs: ReadonlyArray<{ address: string; data: Hex; topics: [Hex, ...Hex[]] | [] }>) {
  const failed: Mined['failed'] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== FACTORY_ADDRESS.toLowerCase()) continue;
    try {
      const event = decodeEventLog({ abi: FACTORY_ABI, data: log.data, topics: log.topics });
      if (event.eventName === 'SweepFailed') {
        const args = event.args as unknown as { forwarder: Address; token: Address };
        failed.push({ forwarder: args.forwarder, token: args.token });
      }
    } catch {
      // Not an event of ours.
    }
  }
  return failed;
}

/** The fees a signed transaction offers (a replacement must raise both). */
export function feesOf(raw: Hex): Fees {
  const tx = parseTransaction(raw);
  return { maxFeePerGas: tx.maxFeePerGas ?? 0n, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? 0n };
}

function unreachable(_err: unknown): never {
  throw new SendError('unreachable');
}

/** A node's refusal, told apart only as far as the owner can act on it: no gas, or anything else. */
function sendFailure(err: unknown): never {
  const text = String((err as { details?: unknown }).details ?? (err as Error)?.message ?? '').toLowerCase();
  if (/insufficient funds|exceeds balance|enough funds/.test(text)) throw new SendError('no_gas');
  if ((err as Error)?.name === 'HttpRequestError' || /fetch failed|econnrefused|timeout/.test(text)) {
    throw new SendError('unreachable');
  }
  throw new SendError('rejected');
}
