/**
 * A small client of Solana's JSON-RPC over HTTP POST (fetch; no SDK in the server): the four methods
 * the watcher uses, in the node's own shapes. RPC URLs may embed a provider key: errors name the
 * method and the kind of failure, never the URL.
 */

export type Commitment = 'confirmed' | 'finalized';

export interface SignatureInfo {
  signature: string;
  slot: number;
  err: unknown;
  blockTime?: number | null;
  confirmationStatus?: 'processed' | 'confirmed' | 'finalized' | null;
}

export interface SignatureStatus {
  slot: number;
  err: unknown;
  confirmationStatus?: 'processed' | 'confirmed' | 'finalized' | null;
}

/** What getTransaction answers with `encoding: "json"`, as far as the watcher reads it. */
export interface RpcTransaction {
  slot: number;
  blockTime?: number | null;
  transaction: { signatures: string[]; message: { accountKeys: string[] } };
  meta: {
    err: unknown;
    loadedAddresses?: { writable: string[]; readonly: string[] } | null;
    preTokenBalances?: TokenBalance[] | null;
    postTokenBalances?: TokenBalance[] | null;
  } | null;
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string; decimals: number };
}

export interface SolanaReader {
  slot(commitment: Commitment): Promise<number>;
  signaturesFor(
    address: string,
    options: { until?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<SignatureInfo[]>;
  transaction(signature: string): Promise<RpcTransaction | null>;
  statuses(signatures: string[]): Promise<Array<SignatureStatus | null>>;
  /** How many calls this reader has made (the benchmark's figure). */
  readonly calls: number;
}

export class SolanaRpcError extends Error {
  override name = 'SolanaRpcError';
}

/** 429 and 5xx are asked again twice, soon; anything else fails the step (the job runs again later). */
const RETRIES = [100, 300];
const TIMEOUT_MS = 10_000;

export function solanaReader(url: string, headers?: Readonly<Record<string, string>>): SolanaReader {
  let calls = 0;
  let id = 0;
  async function call<T>(method: string, params: unknown[]): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      calls++;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }).catch((err: Error) => {
        throw new SolanaRpcError(`${method}: the node did not answer (${err.name})`);
      });
      const retry = RETRIES[attempt];
      if ((res.status === 429 || res.status >= 500) && retry !== undefined) {
        await res.body?.cancel();
        await new Promise((r) => setTimeout(r, retry));
        continue;
      }
      if (!res.ok) throw new SolanaRpcError(`${method}: HTTP ${res.status}`);
      const body = (await res.json()) as { result?: T; error?: { code?: number; message?: string } };
      if (body.error) throw new SolanaRpcError(`${method}: JSON-RPC error ${body.error.code ?? ''}`.trim());
      return body.result as T;
    }
  }
  return {
    get calls() {
      return calls;
    },
    slot: (commitment) => call<number>('getSlot', [{ commitment }]),
    signaturesFor: (address, o) =>
      call<SignatureInfo[]>('getSignaturesForAddress', [
        address,
        {
          commitment: 'confirmed',
          limit: o.limit,
          ...(o.until ? { until: o.until } : {}),
          ...(o.before ? { before: o.before } : {}),
        },
      ]),
    transaction: (signature) =>
      call<RpcTransaction | null>('getTransaction', [
        signature,
        { encoding: 'json', commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
      ]),
    statuses: async (signatures) =>
      (
        await call<{ value: Array<SignatureStatus | null> }>('getSignatureStatuses', [
          signatures,
          { searchTransactionHistory: true },
        ])
      ).value,
  };
}
