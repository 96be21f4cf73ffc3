import type { Address, Hash } from 'viem';
import { FACTORY_ADDRESS, forwarderAddress } from '../forwarders/address.js';
import { invoiceSalt } from '../forwarders/salt.js';
import { type CollectorChain, type Mined, SendError } from './chain.js';
import type { CollectionRow } from './collection.table.js';
import { type CollectorContext, write } from './context.js';
import * as repo from './repository.js';
import { replace, send, tokenOf, wait } from './sign.js';

type Signed = Awaited<ReturnType<typeof repo.transactionsOf>>;

/**
 * A signed collection's next step. One of its transactions mined and deep enough: final (confirmed,
 * its failed sweeps given back; or failed when it reverted). Not mined: while the signer's nonce is
 * unused, its latest transaction is sent again (dropped, or reorganised away), or replaced with
 * higher fees once it waited PAYDESK_COLLECT_REPLACE_BLOCKS blocks; once another transaction took the
 * nonce, failed, its deposits given back.
 */
export async function follow(ctx: CollectorContext, c: CollectionRow): Promise<boolean> {
  const chain = ctx.chain;
  if (!chain) return wait(ctx, c, 'no_key');
  try {
    const signed = await repo.transactionsOf(ctx.db, c.id);
    const mined = await minedOf(chain, signed);
    if (mined) return await onMined(ctx, chain, c, mined);
    let row = c;
    if (row.phase === 'mined') row = await write(ctx, c.id, { kind: 'unmined', seen: c.attempts });
    // A collection signed before migration 0022 has no signer on record: the collector's key signed it.
    const { mined: used } = await chain.nonces((row.signer ?? chain.collector) as Address);
    if (used > Number(row.nonce)) {
      // Its nonce is spent: by one of its own transactions mined since we looked, or by another.
      const late = await minedOf(chain, signed);
      if (late) return await onMined(ctx, chain, row, late);
      await write(ctx, c.id, { kind: 'lost', seen: c.attempts });
      return true;
    }
    const latest = signed[0];
    if (!latest) return true;
    const head = await chain.head();
    const waited = head - BigInt(row.signed_block ?? 0);
    // Only the key that signed can sign a replacement (after a key rotation, the old one is sent as it is).
    if (waited >= BigInt(ctx.replaceBlocks) && row.signer === chain.collector) {
      return await replace(ctx, row, latest);
    }
    return await send(ctx, row, latest.raw_tx);
  } catch (err) {
    if (err instanceof SendError) return wait(ctx, c, err.reason);
    throw err;
  }
}

/** Which of its transactions is mined, if any (at most one: they share a nonce). */
async function minedOf(chain: CollectorChain, signed: Signed) {
  for (const t of signed) {
    const receipt = await chain.receipt(t.tx_hash as Hash);
    if (receipt) return { hash: t.tx_hash, receipt };
  }
  return undefined;
}

async function onMined(
  ctx: CollectorContext,
  chain: CollectorChain,
  c: CollectionRow,
  mined: { hash: string; receipt: Mined },
): Promise<boolean> {
  const r = mined.receipt;
  const block = { hash: mined.hash, blockNumber: r.blockNumber, blockHash: r.blockHash };
  const depth = (await chain.head()) - r.blockNumber + 1n;
  if (depth < BigInt(ctx.network.confirmations)) {
    if (c.phase !== 'mined' || c.block_hash !== r.blockHash || c.tx_hash !== mined.hash) {
      await write(ctx, c.id, { kind: 'mined', seen: c.attempts, ...block });
    }
    return true;
  }
  const { back, moved } = r.success ? await failedSweeps(ctx, c, r.failed) : { back: [], moved: false };
  const action = {
    kind: 'final',
    seen: c.attempts,
    success: r.success,
    moved,
    gasUsed: r.gasUsed,
    ...block,
  } as const;
  const row = await write(ctx, c.id, action, { sweepsFailed: back });
  if (back.length > 0) {
    ctx.log.warn(
      { collection: c.id, failed: back.length },
      'some deposits of a collection could not be moved',
    );
  }
  if (row.phase === 'confirmed' || row.phase === 'failed') {
    ctx.log.info({ collection: c.id, network: c.network, status: row.phase }, `collection ${row.phase}`);
  }
  return true;
}

/**
 * Deposits whose sweep failed (SweepFailed) stay in their forwarders and are collectable again;
 * `moved`: whether any deposit of the collection was moved.
 */
async function failedSweeps(
  ctx: CollectorContext,
  c: CollectionRow,
  failed: ReadonlyArray<{ forwarder: Address; token: Address }>,
) {
  const deposits = await repo.depositsOf(ctx.db, c.id);
  const key = (forwarder: string, token: string) => `${forwarder.toLowerCase()} ${token.toLowerCase()}`;
  const bad = new Set(failed.map((f) => key(f.forwarder, f.token)));
  const payout = c.payout_address as Address;
  const back = deposits
    .filter((d) =>
      bad.has(
        key(
          forwarderAddress(FACTORY_ADDRESS, payout, invoiceSalt(d.projectId, d.invoiceId)),
          tokenOf(ctx, d.token),
        ),
      ),
    )
    .map((d) => ({ invoiceId: d.invoiceId, token: d.token }));
  return { back, moved: back.length < deposits.length };
}
