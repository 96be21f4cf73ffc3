import { money } from '../money/money.js';
import { isTestChain } from '../networks/livemode.js';
import { LeaseLost } from './change.js';
import { checkCollector } from './collector-state.js';
import type { CollectorContext } from './context.js';
import * as deposits from './deposits.repository.js';
import { follow } from './follow.js';
import * as repo from './repository.js';
import { takeAll } from './service.js';
import { signFirst } from './sign.js';

export type { CollectorContext } from './context.js';

/** A deposit this old is collected whatever the project's total (contract §16). */
export const MAX_DEPOSIT_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * One round of a network's collector, run by the instance that leads it (an exclusive job): start
 * the collections that thresholds call for, then take every open collection one step further (sign
 * and send it, send it again, replace it, or see it confirmed or failed). Leading is claimed as a
 * lease term at the first round; every write checks it (change.ts), so an instance that lost the lead
 * while signing stores nothing, and its round ends here.
 */
export async function collectStep(ctx: CollectorContext): Promise<boolean> {
  const state = await checkCollector(ctx);
  // Nothing starts by itself while collections could not be sent; "Collect now" still queues them.
  if (state === 'ok') await startDue(ctx);
  if (state === 'unreachable' || state === 'no_factory') return false;
  const network = ctx.network.name;
  ctx.lease ??= {
    network,
    holder: ctx.holder,
    term: await repo.claimLease(ctx.db, network, ctx.holder, ctx.now()),
  };
  try {
    await advance(ctx);
  } catch (err) {
    if (!(err instanceof LeaseLost)) throw err;
    ctx.lease = undefined;
    ctx.log.warn({ network }, 'collector lead lost to another instance: nothing stored');
  }
  return false;
}

/** Every open collection, in nonce order: nothing is signed behind one that waits. */
async function advance(ctx: CollectorContext): Promise<void> {
  let blocked = false;
  for (const c of await repo.openCollections(ctx.db, ctx.network.name)) {
    if (c.phase === 'queued') {
      if (blocked || !(await signFirst(ctx, c))) blocked = true;
    } else if (!(await follow(ctx, c))) {
      blocked = true;
    }
  }
}

/** Collections due by threshold or age, for every project of the network (contract §16). */
async function startDue(ctx: CollectorContext): Promise<void> {
  const now = ctx.now();
  const min = money(ctx.minUsd);
  // A deposit whose token refused to move it is tried again by itself a day later, not every round.
  const failedBefore = new Date(now.getTime() - MAX_DEPOSIT_AGE_MS);
  const network = { name: ctx.network.name, livemode: !isTestChain(ctx.network) };
  const filter = { network: network.name, minDeposit: ctx.minDepositUsd, failedBefore };
  for (const p of await deposits.collectableProjects(ctx.db, filter)) {
    const due = money(p.total) >= min || now.getTime() - p.oldest.getTime() >= MAX_DEPOSIT_AGE_MS;
    if (!due) continue;
    const take = { projectId: p.project_id, network, now, failedBefore, minDeposit: ctx.minDepositUsd };
    await ctx.db.transaction().execute((tx) => takeAll(tx, take));
  }
}
