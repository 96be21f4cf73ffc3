import {
  type Address,
  getBase58Decoder,
  getBase64Decoder,
  isAddress,
  type MaybeEncodedAccount,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { parsedTokenData, uiTokenAmount } from './accounts.js';
import { invalidParams } from './errors.js';
import {
  addressParam,
  type Config,
  commitment,
  config,
  contextSlot,
  type Method,
  type View,
  withContext,
} from './params.js';

/** An account as getAccountInfo shows it, in the encoding asked for (jsonParsed falls back to base64 for what it cannot parse). */
function encodeAccount(account: MaybeEncodedAccount, encoding: unknown, view: View) {
  if (!account.exists) return null;
  let data: unknown;
  if (encoding === 'jsonParsed') data = parsedTokenData(account, view.ledger.reader);
  else if (encoding === 'base58') data = [getBase58Decoder().decode(account.data), 'base58'];
  else if (encoding !== 'base64')
    throw invalidParams(`Invalid params: unsupported encoding ${String(encoding)}`);
  data ??= [getBase64Decoder().decode(account.data), 'base64'];
  return {
    data,
    executable: account.executable,
    lamports: BigInt(account.lamports),
    owner: account.programAddress,
    rentEpoch: 18446744073709551615n,
    space: account.data.length,
  };
}

const read = (view: View, address: Address, c: Config) =>
  view.ledger.account(address, commitment(c), view.lag);

/** getTokenAccountsByOwner's filter: `{ mint }` or `{ programId }` (the SPL Token program only). */
function tokenFilter(value: unknown): (mint: Address) => boolean {
  const filter = (value ?? {}) as { mint?: unknown; programId?: unknown };
  if (typeof filter.mint === 'string' && isAddress(filter.mint)) return (mint) => mint === filter.mint;
  if (filter.programId === TOKEN_PROGRAM_ADDRESS) return () => true;
  if (typeof filter.programId === 'string') return () => false;
  throw invalidParams('Invalid params: expected { mint } or { programId }');
}

export const accountMethods: Record<string, Method> = {
  getBalance: (p, v) => {
    const c = config(p, 1);
    const account = read(v, addressParam(p), c);
    return withContext(contextSlot(v, c, commitment(c)), account.exists ? BigInt(account.lamports) : 0n);
  },
  getAccountInfo: (p, v) => {
    const c = config(p, 1);
    const account = read(v, addressParam(p), c);
    return withContext(contextSlot(v, c, commitment(c)), encodeAccount(account, c.encoding ?? 'base64', v));
  },
  getMultipleAccounts: (p, v) => {
    const c = config(p, 1);
    if (!Array.isArray(p[0]) || p[0].length > 100)
      throw invalidParams('Invalid params: expected up to 100 addresses');
    const accounts = p[0].map((_, i) => read(v, addressParam(p[0] as unknown[], i), c));
    const slot = contextSlot(v, c, commitment(c));
    return withContext(
      slot,
      accounts.map((a) => encodeAccount(a, c.encoding ?? 'base64', v)),
    );
  },
  getTokenAccountBalance: (p, v) => {
    const c = config(p, 1);
    const token = v.ledger.token(read(v, addressParam(p), c));
    if (!token) throw invalidParams('Invalid param: not a Token account');
    return withContext(contextSlot(v, c, commitment(c)), uiTokenAmount(token.amount, token.decimals));
  },
  getTokenAccountsByOwner: (p, v) => {
    const owner = addressParam(p);
    const wanted = tokenFilter(p[1]);
    const c = config(p, 2);
    const slot = contextSlot(v, c, commitment(c));
    const value = v.ledger.svm
      .getProgramAccounts(TOKEN_PROGRAM_ADDRESS)
      .map((account) => read(v, account.address, c))
      .filter((account) => {
        const token = v.ledger.token(account);
        return token !== null && token.owner === owner && wanted(token.mint);
      })
      .map((account) => ({
        pubkey: account.address,
        account: encodeAccount(account, c.encoding ?? 'base64', v),
      }));
    return withContext(slot, value);
  },
};
