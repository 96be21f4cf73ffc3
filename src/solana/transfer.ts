import type { RpcTransaction, TokenBalance } from './rpc.js';

/** What one transaction did to the watched token accounts, and the keys it names (its references among them). */
export interface SeenTransfer {
  signature: string;
  slot: number;
  /** Every account key of the transaction: a Solana Pay reference is one of them (read-only, unsigned). */
  keys: string[];
  /** Watched token account → what it received (token units, > 0) and of which mint. */
  credits: Map<string, { mint: string; units: bigint }>;
}

/**
 * Reads a transaction (getTransaction, `json` encoding) as the watcher needs it: what each watched
 * token account gained, from the balances before and after (the node's own accounting of every
 * instruction: a TransferChecked, a Transfer, several of them, all summed), and the account keys,
 * static and loaded from lookup tables (v0), in the order balances' `accountIndex` counts them.
 * A failed transaction moved nothing: undefined.
 */
export function readTransfer(tx: RpcTransaction, watched: ReadonlySet<string>): SeenTransfer | undefined {
  if (!tx.meta || tx.meta.err !== null) return undefined;
  const loaded = tx.meta.loadedAddresses;
  const keys = [
    ...tx.transaction.message.accountKeys,
    ...(loaded?.writable ?? []),
    ...(loaded?.readonly ?? []),
  ];
  const credits = new Map<string, { mint: string; units: bigint }>();
  const before = byIndex(tx.meta.preTokenBalances);
  for (const post of tx.meta.postTokenBalances ?? []) {
    const account = keys[post.accountIndex];
    if (account === undefined || !watched.has(account)) continue;
    const pre = before.get(post.accountIndex);
    // A token account created in this transaction (create-idempotent) has no balance before.
    const units = BigInt(post.uiTokenAmount.amount) - BigInt(pre?.uiTokenAmount.amount ?? '0');
    if (units > 0n && (pre === undefined || pre.mint === post.mint))
      credits.set(account, { mint: post.mint, units });
  }
  const signature = tx.transaction.signatures[0] as string;
  return { signature, slot: tx.slot, keys, credits };
}

function byIndex(balances: TokenBalance[] | null | undefined): Map<number, TokenBalance> {
  return new Map((balances ?? []).map((b) => [b.accountIndex, b]));
}
