import {
  BaseError,
  BlockNotFoundError,
  createPublicClient,
  HttpRequestError,
  http,
  parseAbiItem,
  TimeoutError,
  webSocket,
} from 'viem';
import { RpcError } from './rpc-error.js';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const RPC_TIMEOUT_MS = 15_000;

export interface TransferLog {
  /** The token contract, lower-case. */
  token: string;
  /** EIP-55 checksummed, as pay addresses are stored. */
  to: string;
  value: bigint;
  txHash: string;
  blockNumber: bigint;
  blockHash: string;
}

/** The three questions a watcher asks a node. */
export interface ChainReader {
  head(): Promise<bigint>;
  /** Null when the node has no block at that height (the chain is shorter after a reorganisation). */
  blockHash(number: bigint): Promise<string | null>;
  /** The block's timestamp, in seconds. */
  blockTime(number: bigint): Promise<bigint>;
  transfers(tokens: readonly string[], from: bigint, to: bigint): Promise<TransferLog[]>;
}

export function chainReader(rpcUrl: string): ChainReader {
  // No retries inside viem's client: call() below decides what is worth asking again.
  const transport = rpcUrl.startsWith('ws')
    ? webSocket(rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS })
    : http(rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS });
  const client = createPublicClient({ transport });
  return {
    head: () => call('eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 })),
    blockHash: (number) =>
      call('eth_getBlockByNumber', async () => {
        try {
          return (await client.getBlock({ blockNumber: number, includeTransactions: false })).hash;
        } catch (err) {
          if (err instanceof BlockNotFoundError) return null;
          throw err;
        }
      }),
    blockTime: (number) =>
      call('eth_getBlockByNumber', async () => (await client.getBlock({ blockNumber: number })).timestamp),
    async transfers(tokens, from, to) {
      if (tokens.length === 0) return [];
      const logs = await call('eth_getLogs', () =>
        client.getLogs({
          address: tokens as `0x${string}`[],
          event: TRANSFER,
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      );
      return logs
        .filter((l) => !l.removed && l.args.value > 0n)
        .map((l) => ({
          token: l.address.toLowerCase(),
          to: l.args.to,
          value: l.args.value,
          txHash: l.transactionHash,
          blockNumber: l.blockNumber,
          blockHash: l.blockHash,
        }));
    },
  };
}

/**
 * A transient answer (a 502 from a provider's load balancer, a 429) is asked again twice, 100 ms then
 * 200 ms later: every call here is a read, so asking again is always safe, and it spares the watcher
 * a whole step's backoff for one dropped request. A timeout is not retried (it already took 15 s);
 * a third failure fails the step, and the job backs off and runs it again from the cursor.
 */
const RETRY_DELAYS_MS = [100, 200];
const transient = (err: RpcError) => err.status === 429 || (err.status !== undefined && err.status >= 500);

async function call<T>(method: string, fn: () => Promise<T>): Promise<T> {
  for (const delay of RETRY_DELAYS_MS) {
    try {
      return await once(method, fn);
    } catch (err) {
      if (!(err instanceof RpcError) || !transient(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return once(method, fn);
}

async function once<T>(method: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BaseError) {
      const status = err.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
      const timedOut = err.walk((e) => e instanceof TimeoutError) !== null;
      throw new RpcError(method, status?.status, timedOut ? 'timed out' : err.shortMessage);
    }
    throw new RpcError(method, undefined, (err as Error).name);
  }
}
