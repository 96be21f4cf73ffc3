import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { fromTokenUnits, money } from '../money/money.js';
import { type ChangeContext, changeRefunds, each, type LockedRefund, type Plan } from './change.js';

/**
 * What a chain watcher reports about refunds (contract §18, §22): it reads the transfers of a block
 * range once, for deposits and refunds alike, and reports them here, inside the transaction that moves
 * its cursor. A refund is paid by a transfer of at least its token amount of its token to its address,
 * in a block after the one the watcher had reached when the refund became ready. Which refunds are
 * ready is read under their row locks (change.ts): a refund canceled a moment ago is not paid.
 */

/** One transfer as the watcher reads it (chains/rpc.ts TransferLog, in the fields used here). */
export interface Transfer {
  /** The token contract, lower-case 0x hex. */
  token: string;
  /** The recipient, written as the family writes addresses (as refund addresses are stored). */
  to: string;
  value: bigint;
  txHash: string;
  blockNumber: bigint;
}

export interface WatchedNetwork {
  name: string;
  /** Currency → its contract (lower-case 0x hex) and decimals. */
  tokens: ReadonlyMap<string, { address: string; decimals: number }>;
}

const context = (network: WatchedNetwork, now: Date): ChangeContext => ({
  now,
  decimals: (r) => network.tokens.get(r.token ?? '')?.decimals,
});

/** Records the refunds the range's transfers pay: `sent`, or `confirmed` when already deep enough. */
export async function recordRefundPayments(
  tx: Transaction<Database>,
  network: WatchedNetwork,
  logs: readonly Transfer[],
  buriedUpTo: bigint,
  now: Date,
): Promise<void> {
  if (logs.length === 0) return;
  const addresses = [...new Set(logs.map((l) => l.to))];
  const pay: Plan = (ready) =>
    matchPayments(ready, logs, network).map(
      ([refund, t]) =>
        [
          refund,
          { kind: 'paid', txHash: t.txHash, blockNumber: t.blockNumber, final: t.blockNumber <= buriedUpTo },
        ] as const,
    );
  await changeRefunds(tx, { kind: 'ready_to', network: network.name, addresses }, pay, context(network, now));
}

/** Which transfer pays which ready refund; each transfer pays one refund at most. */
function matchPayments(ready: LockedRefund[], logs: readonly Transfer[], network: WatchedNetwork) {
  // Several Transfer logs of one transaction to one address in one token add up to one transfer.
  const sums = new Map<string, Transfer>();
  for (const l of logs) {
    const key = `${l.txHash} ${l.to} ${l.token}`;
    const seen = sums.get(key);
    sums.set(key, seen ? { ...seen, value: seen.value + l.value } : { ...l });
  }
  const unused = [...sums.values()].sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : 1));
  const byAge = [...ready].sort(
    (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1),
  );
  const found: Array<[LockedRefund, Transfer]> = [];
  for (const refund of byAge) {
    const token = network.tokens.get(refund.token ?? '');
    if (!token || refund.token_amount === null) continue;
    const after = refund.after_block === null ? -1n : BigInt(refund.after_block);
    const due = money(refund.token_amount);
    const i = unused.findIndex(
      (t) =>
        t.to === refund.address &&
        t.token === token.address &&
        t.blockNumber > after &&
        fromTokenUnits(t.value, token.decimals) >= due,
    );
    if (i < 0) continue;
    const [t] = unused.splice(i, 1) as [Transfer];
    found.push([refund, t]);
  }
  return found;
}

/** Sent refunds whose transfer is now deep enough: confirmed, each with its event, in one transaction. */
export async function confirmBuriedRefunds(
  db: Kysely<Database>,
  network: WatchedNetwork,
  depthBlock: bigint,
  now: Date,
): Promise<number> {
  const target = { kind: 'sent_up_to', network: network.name, block: depthBlock } as const;
  const changed = await db
    .transaction()
    .execute((tx) => changeRefunds(tx, target, each({ kind: 'buried' }), context(network, now)));
  return changed.length;
}

/** A reorganisation dropped the blocks above `block`: refunds sent in them wait for their transfer again. */
export async function forgetRefundsAbove(
  tx: Transaction<Database>,
  network: string,
  block: bigint,
  now: Date,
): Promise<void> {
  await changeRefunds(tx, { kind: 'sent_above', network, block }, each({ kind: 'dropped' }), { now });
}
