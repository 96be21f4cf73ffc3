import { encodeWithMeta, readEncoding } from './encode.js';
import { invalidParams, RpcError } from './errors.js';
import { GENESIS_SLOT } from './ledger.js';
import { commitment, config, type Method, type View } from './params.js';

/** Every slot from genesis to the node's view has a block: the model has no skipped slots. */
function slotParam(value: unknown, view: View, at: 'confirmed' | 'finalized'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw invalidParams('Invalid params: expected a slot');
  if (value > view.ledger.bound(at, view.lag))
    throw new RpcError(-32004, `Block not available for slot ${value}`);
  if (value < GENESIS_SLOT) {
    throw new RpcError(-32009, `Slot ${value} was skipped, or missing in long-term storage`);
  }
  return value;
}

const getBlock: Method = (p, v) => {
  const c = typeof p[1] === 'string' ? { encoding: p[1] } : config(p, 1);
  const slot = slotParam(p[0], v, commitment(c, 'confirmed') as 'confirmed' | 'finalized');
  const { ledger } = v;
  const block: Record<string, unknown> = {
    blockHeight: ledger.blockHeightOf(slot),
    blockTime: ledger.blockTimeOf(slot),
    blockhash: ledger.blockhashOf(slot),
    parentSlot: slot - 1,
    previousBlockhash: ledger.blockhashOf(slot - 1),
  };
  const details = c.transactionDetails ?? 'full';
  const txs = ledger.inSlot(slot);
  if (details === 'full') {
    const encoding = readEncoding(c.encoding, ['json', 'jsonParsed', 'base64', 'base58'], 'json');
    const max = c.maxSupportedTransactionVersion as number | undefined;
    block.transactions = txs.map((tx) =>
      encodeWithMeta(tx, { encoding, maxSupportedTransactionVersion: max }),
    );
  } else if (details === 'signatures') {
    block.signatures = txs.map((tx) => tx.signature);
  } else if (details !== 'none') {
    throw invalidParams(`Invalid params: transactionDetails ${String(details)} is not served here`);
  }
  if (c.rewards !== false) block.rewards = [];
  return block;
};

function slotRange(v: View, start: unknown, end: number, at: 'confirmed' | 'finalized'): number[] {
  if (typeof start !== 'number' || !Number.isInteger(start) || start < 0)
    throw invalidParams('Invalid params: expected a slot');
  const last = Math.min(end, v.ledger.bound(at, v.lag));
  if (last - start > 500_000) throw invalidParams('Slot range too large; max 500000');
  const slots: number[] = [];
  for (let s = Math.max(start, GENESIS_SLOT); s <= last; s++) slots.push(s);
  return slots;
}

export const blockMethods: Record<string, Method> = {
  getBlock,
  getBlocks: (p, v) => {
    const hasEnd = typeof p[1] === 'number';
    const c = config(p, hasEnd ? 2 : 1);
    const at = commitment(c, 'confirmed') as 'confirmed' | 'finalized';
    return slotRange(v, p[0], hasEnd ? (p[1] as number) : Number.MAX_SAFE_INTEGER, at);
  },
  getBlocksWithLimit: (p, v) => {
    const limit = p[1];
    if (typeof limit !== 'number' || limit < 0 || limit > 500_000)
      throw invalidParams('Invalid params: limit');
    const at = commitment(config(p, 2), 'confirmed') as 'confirmed' | 'finalized';
    return slotRange(v, p[0], (p[0] as number) + limit - 1, at);
  },
  getBlockTime: (p, v) => v.ledger.blockTimeOf(slotParam(p[0], v, 'confirmed')),
};
