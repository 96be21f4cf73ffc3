import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Address, Hash, Hex } from 'viem';
import type { Database } from '../db/schema.js';
import { eventBody } from '../events/body.js';
import { FACTORY_ADDRESS, forwarderAddress } from '../forwarders/address.js';
import { invoiceSalt } from '../forwarders/salt.js';
import { newId } from '../ids.js';
import { money } from '../money/money.js';
import { isTestChain } from '../networks/livemode.js';
import type { Network } from '../networks/network.js';
import { type CollectorChain, SendError } from './chain.js';
import { gather, toCollection } from './collection.js';
import type { CollectionRow, CollectorState } from './collection.table.js';
import * as repo from './repository.js';
import { takeAll } from './service.js';

/** A deposit this old is collected whatever the project's total (contract §16). */
export const MAX_DEPOSIT_AGE_MS = 24 * 60 * 60 * 1000;

export interface CollectorContext {
  db: Kysely<Database>;
  network: Network;
  /** Undefined without a collector key for this network: nothing is signed, and Settings says why. */
  chain: CollectorChain | undefined;
  /** A project's collectable total (tokens at par, in USD) that starts a collection by itself. */
  minUsd: string;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** What checkCollector last stored, so an unchanged collector costs no write per round. */
  stored?: { state: CollectorState; balance: string | null } | undefined;
}

/**
 * One round of a network's collector, run by one instance at a time (an exclusive job): start the
 * collections that thresholds call for, then take every open collection one step further (sign and
 * send it, send it again, or see it confirmed or failed). Only the leader signs, so two instances
 * never hand out one nonce; a collection's deposits were taken under row locks when it was made, so
 * none is collected twice.
 */
export async function collectStep(ctx: CollectorContext): Promise<boolean> {
  const state = await checkCollector(ctx);
  // Nothing starts by itself while collections could not be sent; "Collect now" still queues them.
  if (state === 'ok') await startDue(ctx);
  if (state === 'unreachable' || state === 'no_factory') return false;
  let blocked = false;
  const open = await repo.openCollections(ctx.db, ctx.network.name);
  for (const c of open) {
    if (c.raw_tx === null) {
      // In nonce order: nothing is signed behind a collection that could not be sent.
      if (blocked || !(await signAndSend(ctx, c, open))) blocked = true;
    } else if (!(await follow(ctx, c))) {
      blocked = true;
    }
  }
  return false;
}

/** What the owner's dashboard says about this network's collector: the factory, the gas, the node. */
async function checkCollector(ctx: CollectorContext): Promise<CollectorState | undefined> {
  const chain = ctx.chain;
  if (!chain) return undefined;
  let state: CollectorState;
  let balance: bigint | undefined;
  try {
    balance = await chain.balance();
    state = !(await chain.factoryDeployed()) ? 'no_factory' : balance === 0n ? 'no_gas' : 'ok';
  } catch (err) {
    if (!(err instanceof SendError)) throw err;
    state = 'unreachable';
  }
  await storeState(ctx, chain, state, balance);
  return state;
}

/** Writes what the collector found for the dashboard, only when it changed since the last write. */
async function storeState(
  ctx: CollectorContext,
  chain: CollectorChain,
  state: CollectorState,
  balance: bigint | undefined,
): Promise<void> {
  const shown = { state, balance: balance === undefined ? null : String(balance) };
  if (ctx.stored?.state === shown.state && ctx.stored.balance === shown.balance) return;
  await repo.saveCollectorState(ctx.db, {
    network: ctx.network.name,
    address: chain.collector,
    ...shown,
    checked_at: ctx.now(),
  });
  ctx.stored = shown;
}

/** Collections due by threshold or age, for every project of the network (contract §16). */
async function startDue(ctx: CollectorContext): Promise<void> {
  const now = ctx.now();
  const min = money(ctx.minUsd);
  // A deposit whose token refused to move it is tried again by itself a day later, not every round.
  const failedBefore = new Date(now.getTime() - MAX_DEPOSIT_AGE_MS);
  const network = { name: ctx.network.name, livemode: !isTestChain(ctx.network) };
  for (const p of await repo.collectableProjects(ctx.db, ctx.network.name, failedBefore)) {
    const due = money(p.total) >= min || now.getTime() - p.oldest.getTime() >= MAX_DEPOSIT_AGE_MS;
    if (!due) continue;
    await ctx.db.transaction().execute((tx) => takeAll(tx, p.project_id, network, now, failedBefore));
  }
}

/**
 * Signs a collection (stored before it is sent: a restart sends the same transaction) and sends it.
 * `open` is the round's list of open collections: its nonces, with those signed in this round, say
 * which nonce comes next.
 */
async function signAndSend(ctx: CollectorContext, c: CollectionRow, open: CollectionRow[]): Promise<boolean> {
  const chain = ctx.chain;
  if (!chain) return noteError(ctx, c, 'no_key');
  const deposits = await repo.depositsOf(ctx.db, c.id);
  if (deposits.length === 0) {
    await finish(ctx, c, 'failed', {});
    return true;
  }
  const items = deposits.map((d) => ({
    salt: invoiceSalt(d.projectId, d.invoiceId),
    token: tokenOf(ctx, d.token),
  }));
  const fresh = deposits.filter((d) => !d.deployed).length;
  try {
    const { pending } = await chain.nonces();
    const signedBefore = open
      .filter((o) => o.nonce !== null && o.id !== c.id)
      .map((o) => Number(o.nonce) + 1);
    const nonce = Math.max(pending, ...signedBefore);
    const { raw, hash } = await chain.sign({ payout: c.payout_address as Address, items, fresh }, nonce);
    const signed = await repo.updateCollection(ctx.db, c.id, {
      nonce: String(nonce),
      tx_hash: hash,
      raw_tx: raw,
      updated_at: ctx.now(),
    });
    // The round's list now knows this nonce: the next collection signed in it takes the one after.
    Object.assign(c, signed);
    return await send(ctx, signed);
  } catch (err) {
    if (err instanceof SendError) return noteError(ctx, c, err.reason);
    throw err;
  }
}

/**
 * Sends a signed collection, the first time or again (a node that has it already just says so). Only
 * a change is written and logged: a collection waiting to be mined costs one request per round.
 */
async function send(ctx: CollectorContext, c: CollectionRow): Promise<boolean> {
  try {
    await ctx.chain?.send(c.raw_tx as Hex);
  } catch (err) {
    if (err instanceof SendError) return noteError(ctx, c, err.reason);
    throw err;
  }
  if (c.sent_at === null || c.last_error !== null) {
    await repo.updateCollection(ctx.db, c.id, {
      sent_at: c.sent_at ?? ctx.now(),
      last_error: null,
      updated_at: ctx.now(),
    });
    ctx.log.info({ collection: c.id, network: c.network, tx_hash: c.tx_hash }, 'collection sent');
  }
  return true;
}

/**
 * A signed collection's next step. Mined and deep enough: confirmed (its failed sweeps given back),
 * or failed when it reverted. Not mined: sent again while its nonce is still unused (a dropped or
 * reorganised transaction), failed when another transaction of the collector's took the nonce.
 */
async function follow(ctx: CollectorContext, c: CollectionRow): Promise<boolean> {
  const chain = ctx.chain;
  if (!chain) return noteError(ctx, c, 'no_key');
  try {
    const mined = await chain.receipt(c.tx_hash as Hash);
    if (mined) {
      const depth = (await chain.head()) - mined.blockNumber + 1n;
      if (depth < BigInt(ctx.network.confirmations)) {
        if (c.block_hash !== mined.blockHash) {
          await repo.updateCollection(ctx.db, c.id, {
            block_number: String(mined.blockNumber),
            block_hash: mined.blockHash,
            sent_at: c.sent_at ?? ctx.now(),
            updated_at: ctx.now(),
          });
        }
        return true;
      }
      if (!mined.success) {
        await finish(ctx, c, 'failed', { gasUsed: mined.gasUsed, block: mined });
        return true;
      }
      const moved = await releaseFailedSweeps(ctx, c, mined.failed);
      // A collection that moved nothing (every sweep refused) is a failed one for the merchant.
      await finish(ctx, c, moved ? 'confirmed' : 'failed', { gasUsed: mined.gasUsed, block: mined });
      return true;
    }
    const { mined: used } = await chain.nonces();
    if (used > Number(c.nonce)) {
      // The nonce went to another transaction and ours can never be mined: its deposits go back.
      await finish(ctx, c, 'failed', {});
      return true;
    }
    return await send(ctx, c);
  } catch (err) {
    if (err instanceof SendError) return noteError(ctx, c, err.reason);
    throw err;
  }
}

/**
 * Deposits whose sweep failed (SweepFailed) stay in their forwarders and are collectable again.
 * Returns whether any deposit of the collection was moved.
 */
async function releaseFailedSweeps(
  ctx: CollectorContext,
  c: CollectionRow,
  failed: ReadonlyArray<{ forwarder: Address; token: Address }>,
): Promise<boolean> {
  const deposits = await repo.depositsOf(ctx.db, c.id);
  if (failed.length === 0) return deposits.length > 0;
  const key = (forwarder: string, token: string) => `${forwarder.toLowerCase()} ${token.toLowerCase()}`;
  const bad = new Set(failed.map((f) => key(f.forwarder, f.token)));
  const back = deposits.filter((d) =>
    bad.has(
      key(
        forwarderAddress(FACTORY_ADDRESS, c.payout_address as Address, invoiceSalt(d.projectId, d.invoiceId)),
        tokenOf(ctx, d.token),
      ),
    ),
  );
  ctx.log.warn({ collection: c.id, failed: back.length }, 'some deposits of a collection could not be moved');
  const items = back.map((d) => ({ invoiceId: d.invoiceId, token: d.token }));
  await repo.releaseDeposits(ctx.db, c.id, items, ctx.now());
  return back.length < deposits.length;
}

/** The end of a collection, with its event, in one transaction; a failed one gives its deposits back. */
async function finish(
  ctx: CollectorContext,
  c: CollectionRow,
  status: 'confirmed' | 'failed',
  mined: { gasUsed?: bigint; block?: { blockNumber: bigint; blockHash: string } },
): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (tx) => {
    if (status === 'failed') await repo.releaseDeposits(tx, c.id);
    const row = await repo.updateCollection(tx, c.id, {
      status,
      gas_used: mined.gasUsed === undefined ? null : String(mined.gasUsed),
      block_number: mined.block ? String(mined.block.blockNumber) : c.block_number,
      block_hash: mined.block?.blockHash ?? c.block_hash,
      confirmed_at: status === 'confirmed' ? now : null,
      updated_at: now,
    });
    const contents = gather(await repo.contentsOf(tx, [c.id])).get(c.id) ?? { deposits: 0, amounts: {} };
    const id = newId('evt');
    const type = status === 'confirmed' ? 'collection.confirmed' : 'collection.failed';
    const data = { collection: toCollection(row, contents) };
    const body = eventBody({ id, type, createdAt: now, livemode: row.livemode, data });
    await repo.saveCollectionEvent(tx, { id, projectId: c.project_id, type, body, at: now });
  });
  ctx.log.info({ collection: c.id, network: c.network, status }, `collection ${status}`);
}

/** Records why a collection is waiting (shown to the owner), once; false: stop behind it. */
async function noteError(ctx: CollectorContext, c: CollectionRow, reason: string): Promise<false> {
  if (reason === 'no_gas' && ctx.chain) {
    await storeState(ctx, ctx.chain, 'no_gas', await ctx.chain.balance().catch(() => undefined));
  }
  if (c.last_error !== reason) {
    await repo.updateCollection(ctx.db, c.id, { last_error: reason, updated_at: ctx.now() });
    ctx.log.warn({ collection: c.id, network: c.network, reason }, 'collection waiting');
  }
  return false;
}

function tokenOf(ctx: CollectorContext, currency: string): Address {
  const token = ctx.network.tokens[currency as keyof Network['tokens']];
  if (!token) throw new Error(`${currency} is not configured on ${ctx.network.name}`);
  return token.address as Address;
}
