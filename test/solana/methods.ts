import { invalidParams, RpcError } from './errors.js';
import { accountMethods } from './methods-accounts.js';
import { blockMethods } from './methods-blocks.js';
import { transactionMethods } from './methods-transactions.js';
import { commitment, config, contextSlot, type Method, SOLANA_CORE_VERSION, withContext } from './params.js';

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
  getEpochInfo: (p, v) => {
    const c = config(p, 0);
    const slot = contextSlot(v, c, commitment(c));
    const blockHeight = v.ledger.blockHeight(commitment(c), v.lag);
    // One epoch of 432,000 slots, as on mainnet; the model never reaches its end.
    return {
      absoluteSlot: slot,
      blockHeight,
      epoch: 0,
      slotIndex: slot,
      slotsInEpoch: 432_000,
      transactionCount: null,
    };
  },
  // The fee is 5,000 lamports per signature: no priority fee market is modelled.
  getFeeForMessage: (p, v) => {
    const c = config(p, 1);
    const bytes = Buffer.from(String(p[0]), 'base64');
    return withContext(
      contextSlot(v, c, commitment(c)),
      bytes.length ? 5000 * (bytes[0] === 0x80 ? (bytes[1] ?? 1) : (bytes[0] ?? 1)) : null,
    );
  },
  getRecentPrioritizationFees: () => [],
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

export const METHODS: Record<string, Method> = {
  ...slotMethods,
  ...accountMethods,
  ...blockMethods,
  ...transactionMethods,
};
