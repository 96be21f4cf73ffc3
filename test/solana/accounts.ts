import type { Address, MaybeEncodedAccount } from '@solana/kit';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';

const TOKEN_ACCOUNT_SIZE = 165;
const MINT_SIZE = 82;

export interface TokenState {
  mint: Address;
  owner: Address;
  amount: bigint;
  decimals: number;
  state: 'uninitialized' | 'initialized' | 'frozen';
}

const STATES = ['uninitialized', 'initialized', 'frozen'] as const;

/** What the RPC calls `uiTokenAmount`/`tokenAmount`: the amount in minor units and as a decimal. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const scale = 10n ** BigInt(decimals);
  const whole = amount / scale;
  const fraction = (amount % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : `${whole}`;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** Reads token accounts and mints of the SPL Token program (mint decimals are cached: they never change). */
export function tokenReader(read: (address: Address) => MaybeEncodedAccount) {
  const decimals = new Map<Address, number>();
  const mintDecimals = (mint: Address): number => {
    let known = decimals.get(mint);
    if (known === undefined) {
      const account = read(mint);
      known = account.exists ? getMintDecoder().decode(account.data).decimals : 0;
      decimals.set(mint, known);
    }
    return known;
  };
  const token = (account: MaybeEncodedAccount): TokenState | null => {
    if (!isTokenAccount(account)) return null;
    const t = getTokenDecoder().decode(account.data);
    const state = STATES[t.state] ?? 'uninitialized';
    return { mint: t.mint, owner: t.owner, amount: t.amount, decimals: mintDecimals(t.mint), state };
  };
  return { token, mintDecimals };
}

export function isTokenAccount(
  account: MaybeEncodedAccount,
): account is MaybeEncodedAccount & { exists: true } {
  return (
    account.exists &&
    account.programAddress === TOKEN_PROGRAM_ADDRESS &&
    account.data.length === TOKEN_ACCOUNT_SIZE
  );
}

export function isMint(account: MaybeEncodedAccount): account is MaybeEncodedAccount & { exists: true } {
  return (
    account.exists && account.programAddress === TOKEN_PROGRAM_ADDRESS && account.data.length === MINT_SIZE
  );
}

/** `jsonParsed` data of a token account or a mint, as the RPC's account decoder writes it. */
export function parsedTokenData(
  account: MaybeEncodedAccount & { exists: true },
  reader: ReturnType<typeof tokenReader>,
): { program: string; parsed: unknown; space: number } | null {
  const space = account.data.length;
  const t = reader.token(account);
  if (t) {
    const info = {
      isNative: false,
      mint: t.mint,
      owner: t.owner,
      state: t.state,
      tokenAmount: uiTokenAmount(t.amount, t.decimals),
    };
    return { program: 'spl-token', parsed: { info, type: 'account' }, space };
  }
  if (!isMint(account)) return null;
  const m = getMintDecoder().decode(account.data);
  const option = (o: { __option: string; value?: Address }) => (o.__option === 'Some' ? o.value : null);
  const info = {
    decimals: m.decimals,
    freezeAuthority: option(m.freezeAuthority),
    isInitialized: m.isInitialized,
    mintAuthority: option(m.mintAuthority),
    supply: m.supply.toString(),
  };
  return { program: 'spl-token', parsed: { info, type: 'mint' }, space };
}
