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
import type { Family } from '../networks/family.js';
import { RpcError } from './rpc-error.js';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const AUTHORIZATION_USED = parseAbiItem(
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
);
const RPC_TIMEOUT_MS = 15_000;

export interface TransferLog {
  /** The token contract's account id, lower-case `0x` hex (as JSON-RPC names it in every family). */
  token: string;
  /** Lower-case `0x` hex: the sender (a signed transfer's payer, contract §23). */
  from: string;
  /** Written as the family writes addresses (EIP-55 `0x…`, TRON `T…`), as pay addresses are stored. */
  to: string;
  value: bigint;
  /** As the family's explorers write it (TRON: the txid without 0x). */
  txHash: string;
  blockNumber: bigint;
  blockHash: string;
}

/** An EIP-3009 authorization used on a token (contract §23); the fields lower-case `0x` hex. */
export interface AuthorizationLog {
  token: string;
  authorizer: string;
  nonce: string;
  txHash: string;
  blockNumber: bigint;
  blockHash: string;
}

/** The questions a watcher asks a node. */
export interface ChainReader {
  head(): Promise<bigint>;
  /** Null when the node has no block at that height (the chain is shorter after a reorganisation). */
  blockHash(number: bigint): Promise<string | null>;
  /** The block's timestamp, in seconds. */
  blockTime(number: bigint): Promise<bigint>;
  /** Transfer logs of the tokens (lower-case `0x` hex account ids: never `T…`, never 41-prefixed). */
  transfers(tokens: readonly string[], from: bigint, to: bigint): Promise<TransferLog[]>;
  /** AuthorizationUsed logs of the tokens with one of these nonces (asked only while some are awaited). */
  authorizationsUsed(
    tokens: readonly string[],
    nonces: readonly string[],
    from: bigint,
    to: bigint,
  ): Promise<AuthorizationLog[]>;
}

export interface ReaderOptions {
  /** How the network writes addresses and transaction hashes (networks/family.ts). */
  family: Family;
  /** Sent with every call: TronGrid's API key. Never logged, never in an error. */
  headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * The one reader of every family: TRON's full nodes serve the same Ethereum JSON-RPC methods
 * (eth_blockNumber, eth_getBlockByNumber, eth_getLogs) in the same shapes for what is read here; what
 * differs is how a recipient and a transaction hash are written (the family) and TronGrid's key header.
 */
export function chainReader(rpcUrl: string, options: ReaderOptions): ChainReader {
  const { family } = options;
  // No retries inside viem's client: call() below decides what is worth asking again.
  const fetchOptions = options.headers ? { headers: { ...options.headers } } : undefined;
  const transport = rpcUrl.startsWith('ws')
    ? webSocket(rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS })
    : http(rpcUrl, { retryCount: 0, timeout: RPC_TIMEOUT_MS, fetchOptions });
  const client = createPublicClient({ transport });
  const getTransfers = async (tokens: readonly string[], from: bigint, to: bigint) => {
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
        from: l.args.from.toLowerCase(),
        to: family.address(Buffer.from(l.args.to.slice(2), 'hex')),
        value: l.args.value,
        txHash: family.txHash(l.transactionHash),
        blockNumber: l.blockNumber,
        blockHash: l.blockHash,
      }));
  };
  const transfers = async (tokens: readonly string[], from: bigint, to: bigint): Promise<TransferLog[]> => {
    if (tokens.length === 0) return [];
    try {
      return await getTransfers(tokens, from, to);
    } catch (err) {
      // A node caps the logs of one query (java-tron at 10,000, error -32005): ask for each half.
      if (!tooManyResults(err) || from >= to) throw err;
      const mid = (from + to) / 2n;
      return [...(await transfers(tokens, from, mid)), ...(await transfers(tokens, mid + 1n, to))];
    }
  };
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
    transfers,
    authorizationsUsed: async (tokens, nonces, from, to) => {
      if (tokens.length === 0 || nonces.length === 0) return [];
      const logs = await call('eth_getLogs', () =>
        client.getLogs({
          address: tokens as `0x${string}`[],
          event: AUTHORIZATION_USED,
          args: { nonce: nonces as `0x${string}`[] },
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      );
      return logs
        .filter((l) => !l.removed)
        .map((l) => ({
          token: l.address.toLowerCase(),
          authorizer: l.args.authorizer.toLowerCase(),
          nonce: l.args.nonce.toLowerCase(),
          txHash: family.txHash(l.transactionHash),
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
/**
 * JSON-RPC's "limit exceeded" (EIP-1474). java-tron answers it with "query returned more than 10000
 * results"; some providers use the same code for their rate limit, which splitting would only worsen.
 */
const tooManyResults = (err: unknown) =>
  err instanceof RpcError && err.code === -32005 && /more than \d+ results/i.test(err.message);
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
      const coded = err.walk((e) => typeof (e as { code?: unknown }).code === 'number') as {
        code?: number;
        details?: string;
      } | null;
      // The node's own words ("exceed max block range: 5000") say more than viem's summary of the code.
      const detail = timedOut ? 'timed out' : (coded?.details ?? err.shortMessage);
      throw new RpcError(method, status?.status, detail + hint(status?.status), coded?.code);
    }
    throw new RpcError(method, undefined, (err as Error).name);
  }
}

/** TronGrid answers 403 (with a 30 s penalty) to callers over its rate, most often for want of a key. */
function hint(status: number | undefined): string {
  return status === 403
    ? ' (a provider rate limit? TronGrid answers 403 past its rate: set PAYDESK_TRONGRID_API_KEY)'
    : '';
}
