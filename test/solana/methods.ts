import { getBase58Decoder, getBase64Decoder } from '@solana/kit';
import { parsedTokenData, uiTokenAmount } from './accounts.js';
import { invalidParams, RpcError } from './errors.js';
import { transactionMethods } from './methods-transactions.js';
import {
  addressParam,
  commitment,
  config,
  contextSlot,
  type Method,
  SOLANA_CORE_VERSION,
  withContext,
} from './params.js';

const slotMethods: Record<string, Method> = {
  getSlot: (p, v) => contextSlot(v, config(p, 0), commitment(config(p, 0))),
  getBlockHeight: (p, v) => {
    const c = config(p, 0);
    contextSlot(v, c, commitment(c));
    return v.ledger.blockHeight(commitment(c), v.lag);
  },
  getLatestBlockhash: (p, v) => {
    const c = config(p, 0);
    const { slot, ...value } = v.ledger.latestBlockhash(commitment(c), v.lag);
    contextSlot(v, c, commitment(c));
    return withContext(slot, value);
  },
  isBlockhashValid: (p, v) => {
    const c = config(p, 1);
    return withContext(contextSlot(v, c, commitment(c)), v.ledger.blockhashValid(String(p[0])));
  },
  getGenesisHash: (_p, v) => v.genesisHash,
  // A node more than 128 slots behind reports itself unhealthy (Agave's default health threshold).
  getHealth: (_p, v) => {
    if (v.lag > 128)
      throw new RpcError(-32005, `Node is behind by ${v.lag} slots`, { numSlotsBehind: v.lag });
    return 'ok';
  },
  getVersion: () => ({ 'feature-set': 3294202862, 'solana-core': SOLANA_CORE_VERSION }),
  getMinimumBalanceForRentExemption: (p, v) => {
    const size = p[0];
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
      throw invalidParams('Invalid params: expected a data length');
    return v.ledger.svm.minimumBalanceForRentExemption(BigInt(size));
  },
};

const accountMethods: Record<string, Method> = {
  getBalance: (p, v) => {
    const c = config(p, 1);
    const account = v.ledger.account(addressParam(p), commitment(c), v.lag);
    return withContext(contextSlot(v, c, commitment(c)), account.exists ? BigInt(account.lamports) : 0n);
  },
  getAccountInfo: (p, v) => {
    const c = config(p, 1);
    const account = v.ledger.account(addressParam(p), commitment(c), v.lag);
    const slot = contextSlot(v, c, commitment(c));
    if (!account.exists) return withContext(slot, null);
    const encoding = c.encoding ?? 'base64';
    let data: unknown;
    if (encoding === 'jsonParsed') data = parsedTokenData(account, v.ledger.reader);
    else if (encoding === 'base58') data = [getBase58Decoder().decode(account.data), 'base58'];
    else if (encoding !== 'base64')
      throw invalidParams(`Invalid params: unsupported encoding ${String(encoding)}`);
    data ??= [getBase64Decoder().decode(account.data), 'base64'];
    return withContext(slot, {
      data,
      executable: account.executable,
      lamports: BigInt(account.lamports),
      owner: account.programAddress,
      rentEpoch: 18446744073709551615n,
      space: account.data.length,
    });
  },
  getTokenAccountBalance: (p, v) => {
    const c = config(p, 1);
    const token = v.ledger.token(v.ledger.account(addressParam(p), commitment(c), v.lag));
    if (!token) throw invalidParams('Invalid param: not a Token account');
    return withContext(contextSlot(v, c, commitment(c)), uiTokenAmount(token.amount, token.decimals));
  },
};

export const METHODS: Record<string, Method> = { ...slotMethods, ...accountMethods, ...transactionMethods };
