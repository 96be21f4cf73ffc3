import { type Address, getBase58Decoder, getBase64Decoder } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { TokenState } from './accounts.js';
import { uiTokenAmount } from './accounts.js';
import { invalidParams, RpcError } from './errors.js';
import { writableKeys } from './execute.js';
import type { Commitment, Landed } from './ledger.js';
import { memoText, PROGRAMS, parseInstruction } from './parse.js';

const base58 = getBase58Decoder();
const base64 = getBase64Decoder();

export type Encoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

/** `getTransaction`'s result, as a node answers for one of its stored transactions. */
export function encodeTransaction(
  tx: Landed,
  options: { encoding: Encoding; maxSupportedTransactionVersion?: number },
): unknown {
  return { blockTime: tx.blockTime, slot: tx.slot, ...encodeWithMeta(tx, options) };
}

/** A transaction with its metadata, as in getTransaction and in a block's `transactions`. */
export function encodeWithMeta(
  tx: Landed,
  options: { encoding: Encoding; maxSupportedTransactionVersion?: number },
): Record<string, unknown> {
  const version = tx.message.version;
  if (version !== 'legacy' && (options.maxSupportedTransactionVersion ?? -1) < version) {
    throw new RpcError(
      -32015,
      `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`,
    );
  }
  const out: Record<string, unknown> = {
    meta: encodeMeta(tx, options.encoding),
    transaction: encodeBody(tx, options.encoding),
  };
  // The field exists only for clients that said which versions they read.
  if (options.maxSupportedTransactionVersion !== undefined) out.version = version;
  return out;
}

function encodeBody(tx: Landed, encoding: Encoding): unknown {
  if (encoding === 'base64' || encoding === 'base58') {
    const wire = wireBytes(tx);
    return encoding === 'base64' ? [base64.decode(wire), 'base64'] : [base58.decode(wire), 'base58'];
  }
  const { message } = tx;
  const signatures = Object.values(tx.transaction.signatures).map((s) => (s ? base58.decode(s) : null));
  const keys = tx.accountKeys;
  const lookups = message.version === 'legacy' ? {} : { addressTableLookups: [] };
  if (encoding === 'jsonParsed') {
    const writable = writableKeys(message);
    const accountKeys = keys.map((pubkey, i) => ({
      pubkey,
      signer: i < message.header.numSignerAccounts,
      source: 'transaction',
      writable: writable[i],
    }));
    const instructions = message.instructions.map((ix) =>
      parseInstruction({
        programId: keys[ix.programAddressIndex] as Address,
        accounts: (ix.accountIndices ?? []).map((i) => keys[i] as Address),
        data: new Uint8Array(ix.data ?? []),
        stackHeight: null,
      }),
    );
    return {
      message: { accountKeys, ...lookups, instructions, recentBlockhash: message.lifetimeToken },
      signatures,
    };
  }
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  return {
    message: {
      accountKeys: keys,
      ...lookups,
      header: {
        numReadonlySignedAccounts: numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: numReadonlyNonSignerAccounts,
        numRequiredSignatures: numSignerAccounts,
      },
      instructions: message.instructions.map((ix) => ({
        accounts: ix.accountIndices ?? [],
        data: base58.decode(new Uint8Array(ix.data ?? [])),
        programIdIndex: ix.programAddressIndex,
        stackHeight: null,
      })),
      recentBlockhash: message.lifetimeToken,
    },
    signatures,
  };
}

function wireBytes(tx: Landed): Uint8Array {
  const sigs = Object.values(tx.transaction.signatures);
  const out = [
    sigs.length,
    ...sigs.flatMap((s) => [...(s ?? new Uint8Array(64))]),
    ...tx.transaction.messageBytes,
  ];
  return new Uint8Array(out);
}

function encodeMeta(tx: Landed, encoding: Encoding): unknown {
  const o = tx.outcome;
  const keys = tx.accountKeys;
  const parsed = encoding === 'jsonParsed';
  const innerInstructions = o.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) =>
      parsed
        ? parseInstruction({
            programId: keys[ix.programIdIndex] as Address,
            accounts: ix.accounts.map((i) => keys[i] as Address),
            data: ix.data,
            stackHeight: ix.stackHeight,
          })
        : {
            accounts: ix.accounts,
            data: base58.decode(ix.data),
            programIdIndex: ix.programIdIndex,
            stackHeight: ix.stackHeight,
          },
    ),
  }));
  const loaded =
    parsed || tx.message.version === 'legacy' ? {} : { loadedAddresses: { readonly: [], writable: [] } };
  return {
    computeUnitsConsumed: o.computeUnits,
    err: o.err,
    fee: o.fee,
    innerInstructions,
    ...loaded,
    logMessages: o.logs,
    postBalances: o.postBalances,
    postTokenBalances: tokenBalances(o.postTokens),
    preBalances: o.preBalances,
    preTokenBalances: tokenBalances(o.preTokens),
    rewards: [],
    status: o.err === null ? { Ok: null } : { Err: o.err },
  };
}

function tokenBalances(tokens: (TokenState | null)[]) {
  return tokens.flatMap((t, accountIndex) =>
    t
      ? [
          {
            accountIndex,
            mint: t.mint,
            owner: t.owner,
            programId: TOKEN_PROGRAM_ADDRESS,
            uiTokenAmount: uiTokenAmount(t.amount, t.decimals),
          },
        ]
      : [],
  );
}

const memoCache = new WeakMap<Landed, string | null>();

/** The memo column of getSignaturesForAddress: each memo instruction as "[length] text", joined by "; ". */
export function memoOf(tx: Landed): string | null {
  let memo = memoCache.get(tx);
  if (memo === undefined) {
    memo = readMemos(tx);
    memoCache.set(tx, memo);
  }
  return memo;
}

function readMemos(tx: Landed): string | null {
  const memos = tx.message.instructions
    .filter((ix) => {
      const program = tx.accountKeys[ix.programAddressIndex];
      return program === PROGRAMS.memo || program === PROGRAMS.memoV1;
    })
    .map((ix) => {
      const data = new Uint8Array(ix.data ?? []);
      return `[${data.length}] ${memoText(data)}`;
    });
  return memos.length ? memos.join('; ') : null;
}

/** One entry of getSignaturesForAddress. */
export function signatureInfo(tx: Landed, confirmationStatus: Commitment) {
  return {
    blockTime: tx.blockTime,
    confirmationStatus,
    err: tx.outcome.err,
    memo: memoOf(tx),
    signature: tx.signature,
    slot: tx.slot,
  };
}

export function readEncoding(value: unknown, allowed: readonly Encoding[], fallback: Encoding): Encoding {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as Encoding))
    throw invalidParams(`Invalid params: unknown encoding ${String(value)}`);
  return value as Encoding;
}
