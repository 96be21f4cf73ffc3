import type { Address, Hex } from 'viem';
import { invoiceSalt } from '../forwarders/salt.js';
import type { Network } from '../networks/network.js';
import { feesOf, SendError } from './chain.js';
import type { CollectionRow } from './collection.table.js';
import { storeState } from './collector-state.js';
import { type CollectorContext, write } from './context.js';
import { firstFees, replacementFees } from './fees.js';
import type { WaitReason } from './lifecycle.js';
import * as repo from './repository.js';

/**
 * Signing and sending (contract §16, §22). Signed bytes are stored before they are sent, by the one
 * writer, which checks in that same transaction that this instance still leads the network's
 * collector: a restart sends the same transaction again, and an instance that lost the lead never
 * stores a second transaction for a nonce. Each returns false when the collections behind it (in
 * nonce order) must wait.
 */

/** A queued collection's first transaction: the next nonce, fees under the cap, forwarders never deployed first. */
export async function signFirst(ctx: CollectorContext, c: CollectionRow): Promise<boolean> {
  const chain = ctx.chain;
  if (!chain) return wait(ctx, c, 'no_key');
  const deposits = await repo.depositsOf(ctx.db, c.id);
  if (deposits.length === 0) {
    await write(ctx, c.id, { kind: 'empty' });
    return true;
  }
  const items = deposits.map((d) => ({
    salt: invoiceSalt(d.projectId, d.invoiceId),
    token: tokenOf(ctx, d.token),
  }));
  const fresh = deposits.filter((d) => !d.deployed).length;
  try {
    const priced = firstFees(await chain.market(), ctx.maxFeeWei);
    if (!priced.ok) return wait(ctx, c, 'fee_cap', priced.needed);
    // Every nonce a collection ever had is spent (mined, or taken by another transaction).
    const [{ pending }, last, head] = await Promise.all([
      chain.nonces(),
      repo.lastNonce(ctx.db, ctx.network.name, chain.collector),
      chain.head(),
    ]);
    const nonce = Math.max(pending, last === undefined ? 0 : last + 1);
    const call = { payout: c.payout_address as Address, items, fresh };
    const { raw, hash } = await chain.sign(call, nonce, priced.fees);
    const action = { kind: 'signed', seen: 0, hash, nonce, signer: chain.collector, head } as const;
    const row = await write(ctx, c.id, action, { raw });
    return row.tx_hash === hash ? await send(ctx, row, raw) : true;
  } catch (err) {
    if (err instanceof SendError) return wait(ctx, c, err.reason);
    throw err;
  }
}

/**
 * The latest transaction signed again with the same nonce and higher fees (fees.ts), once it waited
 * PAYDESK_COLLECT_REPLACE_BLOCKS blocks unmined; at the cap, the collection waits instead. The older
 * transactions stay recorded: whichever is mined confirms it.
 */
export async function replace(ctx: CollectorContext, c: CollectionRow, latest: { raw_tx: string }) {
  const chain = ctx.chain;
  if (!chain) return wait(ctx, c, 'no_key');
  const old = feesOf(latest.raw_tx as Hex);
  const priced = replacementFees(old, await chain.market(), ctx.maxFeeWei);
  if (!priced.ok) return wait(ctx, c, 'fee_cap', priced.needed);
  const head = await chain.head();
  const { raw, hash } = await chain.resign(latest.raw_tx as Hex, priced.fees);
  const action = {
    kind: 'signed',
    seen: c.attempts,
    hash,
    nonce: Number(c.nonce),
    signer: c.signer ?? '',
    head,
  } as const;
  const row = await write(ctx, c.id, action, { raw });
  if (row.tx_hash !== hash) return true;
  ctx.log.info(
    {
      collection: c.id,
      replaced: c.tx_hash,
      tx_hash: hash,
      max_fee_per_gas: String(priced.fees.maxFeePerGas),
    },
    'collection replaced with higher fees',
  );
  return send(ctx, row, raw);
}

/** Sends signed bytes, the first time or again (a node that has them already just says so). */
export async function send(ctx: CollectorContext, c: CollectionRow, raw: string): Promise<boolean> {
  try {
    await ctx.chain?.send(raw as Hex);
  } catch (err) {
    if (err instanceof SendError) return wait(ctx, c, err.reason);
    throw err;
  }
  // Only a change is written and logged: a collection waiting to be mined costs one request a round.
  if (c.sent_at !== null && c.last_error === null) return true;
  const row = await write(ctx, c.id, { kind: 'sent', seen: c.attempts });
  if (row.sent_at !== c.sent_at) {
    ctx.log.info({ collection: c.id, network: c.network, tx_hash: c.tx_hash }, 'collection sent');
  }
  return true;
}

/** Records why a collection waits (shown to the owner), once; false: the ones behind it wait too. */
export async function wait(
  ctx: CollectorContext,
  c: CollectionRow,
  reason: WaitReason,
  feeNeeded?: bigint,
): Promise<false> {
  const fees = reason === 'fee_cap' ? [String(feeNeeded ?? 0n), String(ctx.maxFeeWei ?? 0n)] : [null, null];
  // Already said: a collection waiting at the cap costs no write per round.
  if (c.last_error === reason && c.fee_needed === fees[0] && c.fee_cap === fees[1]) return false;
  if (reason === 'no_gas' && ctx.chain) {
    await storeState(ctx, 'no_gas', await ctx.chain.balance().catch(() => undefined));
  }
  const row = await write(ctx, c.id, { kind: 'waiting', reason, feeNeeded, feeCap: ctx.maxFeeWei });
  // Logged when the reason changes; the fee needed moves with every block and is only stored.
  if (row.last_error !== c.last_error) {
    ctx.log.warn({ collection: c.id, network: c.network, reason, fee_needed: fees[0] }, 'collection waiting');
  }
  return false;
}

export function tokenOf(ctx: CollectorContext, currency: string): Address {
  const token = ctx.network.tokens[currency as keyof Network['tokens']];
  if (!token) throw new Error(`${currency} is not configured on ${ctx.network.name}`);
  return token.address as Address;
}
