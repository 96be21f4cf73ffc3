import type { Address, MaybeEncodedAccount, Transaction } from '@solana/kit';
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from 'litesvm';
import type { TokenState, tokenReader } from './accounts.js';
import { landsDespite, rpcTransactionError } from './errors.js';
import type { Message } from './ledger.js';

export interface InnerInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
  stackHeight: number;
}

/** What a transaction did: the metadata a node stores beside it in the block. */
export interface Outcome {
  /** The RPC's `err`, null when every instruction succeeded. */
  err: unknown;
  fee: bigint;
  logs: string[];
  computeUnits: bigint;
  innerInstructions: { index: number; instructions: InnerInstruction[] }[];
  preBalances: bigint[];
  postBalances: bigint[];
  /** Per account key: its token account state before and after, or null. */
  preTokens: (TokenState | null)[];
  postTokens: (TokenState | null)[];
  /** The writable accounts as they were before: what undoing the transaction puts back. */
  undo: MaybeEncodedAccount[];
}

/** Indexes of the writable keys of a message, from its header. */
export function writableKeys(message: Message): boolean[] {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  const n = message.staticAccounts.length;
  return message.staticAccounts.map((_, i) =>
    i < numSignerAccounts
      ? i < numSignerAccounts - numReadonlySignerAccounts
      : i < n - numReadonlyNonSignerAccounts,
  );
}

/**
 * Runs a transaction on LiteSVM and records its metadata. A failed instruction still lands (fee
 * charged, state otherwise unchanged), as on a real cluster; a transaction that cannot be loaded is
 * `rejected` and leaves no trace.
 */
export function execute(
  svm: LiteSVM,
  reader: ReturnType<typeof tokenReader>,
  transaction: Transaction,
  message: Message,
): { outcome: Outcome } | { rejected: unknown; logs: string[] } {
  if ((message as { addressTableLookups?: unknown[] }).addressTableLookups?.length) {
    return {
      rejected: 'UnsupportedVersion',
      logs: ['address lookup tables are not modelled (test/solana/README.md)'],
    };
  }
  const keys: readonly Address[] = message.staticAccounts;
  const writable = writableKeys(message);
  const before = keys.map((k) => svm.getAccount(k));
  const result = svm.sendTransaction(transaction);
  const failed = result instanceof FailedTransactionMetadata;
  const meta: TransactionMetadata = failed ? result.meta() : result;
  if (failed && !landsDespite(result.err())) {
    return { rejected: rpcTransactionError(result.err()), logs: meta.logs() };
  }
  const after = keys.map((k) => svm.getAccount(k));
  const lamportsOf = (a: MaybeEncodedAccount) => (a.exists ? BigInt(a.lamports) : 0n);
  const preBalances = before.map(lamportsOf);
  const postBalances = after.map(lamportsOf);
  // Lamports only move between the transaction's own accounts; what is missing afterwards is the fee.
  const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
  return {
    outcome: {
      err: failed ? rpcTransactionError(result.err()) : null,
      fee: sum(preBalances) - sum(postBalances),
      logs: meta.logs(),
      computeUnits: meta.computeUnitsConsumed(),
      innerInstructions: innerInstructions(meta),
      preBalances,
      postBalances,
      preTokens: before.map(reader.token),
      postTokens: after.map(reader.token),
      undo: before.filter((_, i) => writable[i]),
    },
  };
}

function innerInstructions(meta: TransactionMetadata): Outcome['innerInstructions'] {
  return meta
    .innerInstructions()
    .map((list, index) => ({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return {
          programIdIndex: ix.programIdIndex(),
          accounts: [...ix.accounts()],
          data: ix.data(),
          stackHeight: inner.stackHeight(),
        };
      }),
    }))
    .filter((group) => group.instructions.length > 0);
}
