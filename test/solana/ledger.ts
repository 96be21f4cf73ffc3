import { createHash, randomBytes } from 'node:crypto';
import {
  type Address,
  type CompiledTransactionMessageWithLifetime,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type LegacyCompiledTransactionMessage,
  type MaybeEncodedAccount,
  type Transaction,
  type V0CompiledTransactionMessage,
} from '@solana/kit';
import type { LiteSVM } from 'litesvm';
import { type TokenState, tokenReader } from './accounts.js';
import { execute, type Outcome } from './execute.js';

export type Commitment = 'processed' | 'confirmed' | 'finalized';
/** A legacy or v0 message (v1 messages are not modelled). */
export type Message = (LegacyCompiledTransactionMessage | V0CompiledTransactionMessage) &
  CompiledTransactionMessageWithLifetime;

/** A transaction in a block: where it landed and what it did. */
export interface Landed {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number;
  /** Landing order over the whole ledger (transactions of one slot keep the order they arrived in). */
  readonly order: number;
  readonly transaction: Transaction;
  readonly message: Message;
  readonly accountKeys: readonly Address[];
  outcome: Outcome;
}

/** The first slot and block height: they differ, as on a real cluster (skipped slots), so a client mixing them is caught. */
export const GENESIS_SLOT = 1_000;
const SKIPPED_BEFORE_GENESIS = 100;
/** A blockhash is usable for 150 blocks, as on mainnet. */
const BLOCKHASH_VALIDITY = 150;
/** Without finalize(), a slot becomes finalized 32 slots later (the lockout a real vote tower reaches). */
const FINALITY_DEPTH = 32;

const base58 = getBase58Decoder();

/**
 * The cluster's history over one LiteSVM: LiteSVM executes each transaction at once and keeps only
 * the newest state; the ledger adds what a node has and LiteSVM has not: slots, the three
 * commitment levels, the blocks' transactions with their metadata, and forks that are abandoned.
 */
export function createLedger(svm: LiteSVM) {
  const salt = randomBytes(8).toString('hex');
  const reader = tokenReader((a) => svm.getAccount(a));
  // The genesis slot is finalized; transactions land from the next one on.
  let slot = GENESIS_SLOT + 1;
  let finalizedSlot = GENESIS_SLOT;
  let order = 0;
  const bySignature = new Map<string, Landed>();
  const byAddress = new Map<string, Landed[]>();
  const bySlot = new Map<number, Landed[]>();
  /** Landed and not finalized yet, in landing order: what a dropped fork can take away. */
  let unfinalized: Landed[] = [];
  const issuedBlockhashes = new Map<string, number>();
  /** When each slot became the tip, [slot, unix seconds] in slot order: a block's time. */
  const tipTimes: [number, number][] = [[GENESIS_SLOT, Math.floor(Date.now() / 1000)]];
  const blockTimeOf = (s: number): number => {
    let lo = 0;
    let hi = tipTimes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((tipTimes[mid] as [number, number])[0] <= s) lo = mid;
      else hi = mid - 1;
    }
    return (tipTimes[lo] as [number, number])[1];
  };

  const blockHeightOf = (s: number) => s - SKIPPED_BEFORE_GENESIS;
  const blockhashOf = (s: number) => {
    const hash = base58.decode(createHash('sha256').update(`${salt}:${s}`).digest());
    issuedBlockhashes.set(hash, s);
    return hash;
  };

  /** The highest slot a node answers from at each commitment; one `lag` slots behind the cluster sees less. */
  const bound = (commitment: Commitment, lag = 0): number => {
    const head = { processed: slot, confirmed: Math.max(finalizedSlot, slot - 1), finalized: finalizedSlot };
    return Math.max(GENESIS_SLOT, head[commitment] - lag);
  };
  const statusOf = (tx: Landed, lag = 0): Commitment | null => {
    if (tx.slot <= bound('finalized', lag)) return 'finalized';
    if (tx.slot <= bound('confirmed', lag)) return 'confirmed';
    return tx.slot <= bound('processed', lag) ? 'processed' : null;
  };

  const settle = () => {
    finalizedSlot = Math.max(finalizedSlot, slot - FINALITY_DEPTH);
    unfinalized = unfinalized.filter((tx) => tx.slot > finalizedSlot);
  };

  const index = (tx: Landed) => {
    bySignature.set(tx.signature, tx);
    const block = bySlot.get(tx.slot) ?? [];
    block.push(tx);
    bySlot.set(tx.slot, block);
    for (const key of tx.accountKeys) {
      const list = byAddress.get(key) ?? [];
      list.push(tx);
      byAddress.set(key, list);
    }
  };
  const unindex = (tx: Landed) => {
    bySignature.delete(tx.signature);
    bySlot.set(
      tx.slot,
      (bySlot.get(tx.slot) ?? []).filter((t) => t !== tx),
    );
    for (const key of tx.accountKeys) {
      const list = byAddress.get(key);
      if (list)
        byAddress.set(
          key,
          list.filter((t) => t !== tx),
        );
    }
  };

  return {
    svm,
    reader,
    get slot() {
      return slot;
    },
    bound,
    statusOf,
    blockHeight: (commitment: Commitment, lag = 0) => blockHeightOf(bound(commitment, lag)),
    latestBlockhash(commitment: Commitment, lag = 0) {
      const s = bound(commitment, lag);
      return {
        blockhash: blockhashOf(s),
        lastValidBlockHeight: blockHeightOf(s) + BLOCKHASH_VALIDITY,
        slot: s,
      };
    },
    /** Whether a transaction with this lifetime token could still land now. */
    blockhashValid(hash: string): boolean {
      const issued = issuedBlockhashes.get(hash);
      return issued !== undefined && blockHeightOf(issued) + BLOCKHASH_VALIDITY >= blockHeightOf(slot);
    },
    decode(wire: Uint8Array): { transaction: Transaction; message: Message; signature: string } {
      const transaction = getTransactionDecoder().decode(wire);
      const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
      if (message.version !== 'legacy' && message.version !== 0)
        throw new Error(`version ${message.version} messages are not modelled`);
      const signatures = Object.values(transaction.signatures);
      if (signatures.length === 0) throw new Error('transaction without signatures');
      // An unsigned transaction (kit decodes a zeroed signature as null) can still be simulated.
      return { transaction, message, signature: base58.decode(signatures[0] ?? new Uint8Array(64)) };
    },
    find: (signature: string) => bySignature.get(signature),
    /** The transactions of a slot's block, in order. */
    inSlot: (s: number): readonly Landed[] => bySlot.get(s) ?? [],
    blockTimeOf,
    blockhashOf,
    blockHeightOf,
    forAddress: (address: string): readonly Landed[] => byAddress.get(address) ?? [],

    /** Executes a transaction in the current slot; returns what landed, or the error of one that cannot land. */
    land(decoded: { transaction: Transaction; message: Message; signature: string }) {
      const result = execute(svm, reader, decoded.transaction, decoded.message);
      if ('rejected' in result) return result;
      const tx: Landed = {
        ...decoded,
        slot,
        blockTime: blockTimeOf(slot),
        order: order++,
        accountKeys: decoded.message.staticAccounts,
        outcome: result.outcome,
      };
      index(tx);
      unfinalized.push(tx);
      return { landed: tx };
    },

    /** The account as the node has it at a commitment: before the first later transaction that wrote it. */
    account(address: Address, commitment: Commitment, lag = 0): MaybeEncodedAccount {
      const b = bound(commitment, lag);
      for (const tx of unfinalized) {
        if (tx.slot <= b) continue;
        const before = tx.outcome.undo.find((a) => a.address === address);
        if (before) return before;
      }
      return svm.getAccount(address);
    },
    token: (account: MaybeEncodedAccount): TokenState | null => reader.token(account),

    advance(slots = 1) {
      slot += slots;
      tipTimes.push([slot, Math.floor(Date.now() / 1000)]);
      svm.warpToSlot(BigInt(slot));
      settle();
    },
    finalize() {
      finalizedSlot = Math.max(finalizedSlot, slot - 1);
      settle();
    },

    /**
     * A fork is abandoned: the given unfinalized transactions (all of them without a signature) were
     * only on it. The accounts are rolled back to before the first of them and the others that
     * landed since are executed again, as the surviving fork has them; one that no longer succeeds
     * there vanishes as well (it spent what the dropped ones brought).
     */
    drop(signature?: string): string[] {
      const victims = new Set(
        signature === undefined ? unfinalized : unfinalized.filter((t) => t.signature === signature),
      );
      if (signature !== undefined && victims.size === 0) {
        throw new Error(`dropUnfinalized: ${signature} is not an unfinalized transaction of this cluster`);
      }
      const first = Math.min(...[...victims].map((t) => t.order));
      const affected = unfinalized.filter((t) => t.order >= first);
      for (const tx of [...affected].reverse()) for (const before of tx.outcome.undo) restore(svm, before);
      const gone: string[] = [];
      for (const tx of affected) {
        if (!victims.has(tx)) {
          const again = execute(svm, reader, tx.transaction, tx.message);
          if ('outcome' in again && (again.outcome.err === null || tx.outcome.err !== null)) {
            tx.outcome = again.outcome;
            continue;
          }
          if ('outcome' in again) for (const before of again.outcome.undo) restore(svm, before);
        }
        unindex(tx);
        gone.push(tx.signature);
      }
      unfinalized = unfinalized.filter((t) => bySignature.has(t.signature));
      return gone;
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;

/** Puts an account back as it was; an account that did not exist is removed (LiteSVM drops one with no lamports). */
function restore(svm: LiteSVM, before: MaybeEncodedAccount): void {
  if (before.exists) {
    svm.setAccount(before);
    return;
  }
  const now = svm.getAccount(before.address);
  if (now.exists) svm.setAccount({ ...now, lamports: 0n as never, data: new Uint8Array(), space: 0n });
}
