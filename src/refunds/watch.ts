import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { owedUnits } from './amounts.js';
import { anySent, readyRecipients } from './browse.repository.js';
import { type ChangeContext, changeRefunds, each, type LockedRefund, type Plan } from './change.js';
import { type DueRefund, matchTransfers } from './match.js';

/**
 * What a chain watcher reports about refunds (contract §18, §22): it reads the transfers of a block
 * range once, for deposits and refunds alike, and reports them here, inside the transaction that moves
 * its cursor. Which transfer pays which refund is match.ts's rule; which refunds are
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
    matchTransfers(
      ready.flatMap((r) => due(r, network)),
      logs,
    ).map(({ refund, transfer: t }) => {
      const final = t.blockNumber <= buriedUpTo;
      return [refund.row, { kind: 'paid', txHash: t.txHash, blockNumber: t.blockNumber, final }] as const;
    });
  await changeRefunds(tx, { kind: 'ready_to', network: network.name, addresses }, pay, context(network, now));
}

/** A ready refund as the matcher sees it: what it is owed, in the units of its token on this network. */
function due(row: LockedRefund, network: WatchedNetwork): Array<DueRefund & { row: LockedRefund }> {
  const token = network.tokens.get(row.token ?? '');
  if (!token || row.token_amount === null || row.address === null) return [];
  return [
    {
      row,
      id: row.id,
      createdAt: row.created_at,
      address: row.address,
      token: token.address,
      units: owedUnits(row.token_amount, token.decimals),
      afterBlock: row.after_block === null ? null : BigInt(row.after_block),
    },
  ];
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

/** The addresses ready refunds on the network wait a transfer to, per token (a Solana watcher's accounts). */
export function refundRecipients(db: Kysely<Database>, network: string) {
  return readyRecipients(db, network);
}

/** Whether refunds on the network are sent and not yet final (a Solana watcher then asks for the finalized slot). */
export function refundsSent(db: Kysely<Database>, network: string) {
  return anySent(db, network);
}
