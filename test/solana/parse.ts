import { type Address, getAddressDecoder, getBase58Decoder } from '@solana/kit';
import { uiTokenAmount } from './accounts.js';

export const PROGRAMS = {
  system: '11111111111111111111111111111111',
  token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  ata: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  memo: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  memoV1: 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
} as const;

const base58 = getBase58Decoder();
const addressAt = (data: Uint8Array, offset: number) => getAddressDecoder().decode(data, offset);
const u64 = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
const u32 = (data: Uint8Array, offset: number) =>
  new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true);

export interface RawInstruction {
  programId: Address;
  accounts: Address[];
  data: Uint8Array;
  stackHeight: number | null;
}

/**
 * An instruction as `jsonParsed` shows it: parsed for the programs a node parses (system, SPL Token,
 * Associated Token Account, Memo) in the instructions a payment uses; anything else "partially
 * decoded" (program id, accounts, base58 data), as a node does for programs it cannot parse.
 */
export function parseInstruction(ix: RawInstruction): unknown {
  const parsed = parseKnown(ix);
  if (parsed === undefined) {
    return {
      accounts: ix.accounts,
      data: base58.decode(ix.data),
      programId: ix.programId,
      stackHeight: ix.stackHeight,
    };
  }
  return { ...parsed, programId: ix.programId, stackHeight: ix.stackHeight };
}

function parseKnown(ix: RawInstruction): { program: string; parsed: unknown } | undefined {
  switch (ix.programId) {
    case PROGRAMS.memo:
    case PROGRAMS.memoV1:
      return {
        program: ix.programId === PROGRAMS.memo ? 'spl-memo' : 'spl-memo-v1',
        parsed: memoText(ix.data),
      };
    case PROGRAMS.token:
      return wrap('spl-token', parseToken(ix));
    case PROGRAMS.ata:
      return wrap('spl-associated-token-account', parseAta(ix));
    case PROGRAMS.system:
      return wrap('system', parseSystem(ix));
    default:
      return undefined;
  }
}

const wrap = (program: string, parsed: unknown) => (parsed === undefined ? undefined : { program, parsed });

/** A memo's text; a node shows "(unparseable)" for bytes that are not UTF-8. */
export function memoText(data: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return '(unparseable)';
  }
}

/**
 * The authority of a token instruction: with more accounts than the instruction needs, a node takes
 * the authority for a multisig and the rest for its signers. So a Solana Pay `reference` appended
 * to TransferChecked shows up under `signers`, exactly as on mainnet.
 */
function authority(accounts: Address[], at: number, single: string, multisig: string) {
  if (accounts.length > at + 1) return { [multisig]: accounts[at], signers: accounts.slice(at + 1) };
  return { [single]: accounts[at] };
}

function parseToken({ data, accounts: a }: RawInstruction): unknown {
  switch (data[0]) {
    case 3:
      return {
        type: 'transfer',
        info: {
          source: a[0],
          destination: a[1],
          amount: u64(data, 1).toString(),
          ...authority(a, 2, 'authority', 'multisigAuthority'),
        },
      };
    case 12: {
      const tokenAmount = uiTokenAmount(u64(data, 1), data[9] ?? 0);
      const info = {
        source: a[0],
        mint: a[1],
        destination: a[2],
        ...authority(a, 3, 'authority', 'multisigAuthority'),
        tokenAmount,
      };
      return { type: 'transferChecked', info };
    }
    case 7:
      return {
        type: 'mintTo',
        info: {
          mint: a[0],
          account: a[1],
          amount: u64(data, 1).toString(),
          ...authority(a, 2, 'mintAuthority', 'multisigMintAuthority'),
        },
      };
    case 18:
      return { type: 'initializeAccount3', info: { account: a[0], mint: a[1], owner: addressAt(data, 1) } };
    case 21:
      return { type: 'getAccountDataSize', info: { mint: a[0] } };
    case 22:
      return { type: 'initializeImmutableOwner', info: { account: a[0] } };
    default:
      return undefined;
  }
}

function parseAta({ data, accounts: a }: RawInstruction): unknown {
  const type = data.length === 0 || data[0] === 0 ? 'create' : data[0] === 1 ? 'createIdempotent' : undefined;
  if (!type) return undefined;
  return {
    type,
    info: { source: a[0], account: a[1], wallet: a[2], mint: a[3], systemProgram: a[4], tokenProgram: a[5] },
  };
}

function parseSystem({ data, accounts: a }: RawInstruction): unknown {
  switch (u32(data, 0)) {
    case 0:
      return {
        type: 'createAccount',
        info: {
          source: a[0],
          newAccount: a[1],
          lamports: Number(u64(data, 4)),
          space: Number(u64(data, 12)),
          owner: addressAt(data, 20),
        },
      };
    case 1:
      return { type: 'assign', info: { account: a[0], owner: addressAt(data, 4) } };
    case 2:
      return { type: 'transfer', info: { source: a[0], destination: a[1], lamports: Number(u64(data, 4)) } };
    case 8:
      return { type: 'allocate', info: { account: a[0], space: Number(u64(data, 4)) } };
    default:
      return undefined;
  }
}
