import { SendError } from './chain.js';
import type { CollectorState } from './collection.table.js';
import type { CollectorContext } from './context.js';
import * as repo from './repository.js';

/** What the owner's dashboard says about this network's collector: the factory, the gas, the node. */
export async function checkCollector(ctx: CollectorContext): Promise<CollectorState | undefined> {
  if (!ctx.chain) return undefined;
  let state: CollectorState;
  let balance: bigint | undefined;
  try {
    balance = await ctx.chain.balance();
    state = !(await ctx.chain.factoryDeployed()) ? 'no_factory' : balance === 0n ? 'no_gas' : 'ok';
  } catch (err) {
    if (!(err instanceof SendError)) throw err;
    state = 'unreachable';
  }
  await storeState(ctx, state, balance);
  return state;
}

/** Writes what the collector found for the dashboard, only when it changed since the last write. */
export async function storeState(
  ctx: CollectorContext,
  state: CollectorState,
  balance: bigint | undefined,
): Promise<void> {
  if (!ctx.chain) return;
  const shown = { state, balance: balance === undefined ? null : String(balance) };
  if (ctx.stored?.state === shown.state && ctx.stored.balance === shown.balance) return;
  await repo.saveCollectorState(ctx.db, {
    network: ctx.network.name,
    address: ctx.chain.collector,
    ...shown,
    checked_at: ctx.now(),
  });
  ctx.stored = shown;
}
