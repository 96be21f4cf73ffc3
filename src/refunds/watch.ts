import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { newEvent } from '../invoices/events.js';
import { formatUnits, fromTokenUnits, money } from '../money/money.js';
import { REFUND_TOKEN_DECIMALS } from './amounts.js';
import { toRefund } from './refund.js';
import type { RefundRow } from './refund.table.js';
import * as repo from './repository.js';

/**
 * What a chain watcher reports about refunds (contract §18): it reads the transfers of a block range
 * once, for deposits and refunds alike, and asks here which of them pay a ready refund. A refund is
 * paid by one transaction that moves at least its token amount of its token to its address, in a block
 * after the one the watcher had reached when the refund became ready. Seen above the confirmation
 * depth it is `sent`; at or below it, `confirmed` (with `refund.confirmed` in the outbox).
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

export interface RefundPayment {
  refund: RefundRow & { rate: unknown };
  txHash: string;
  blockNumber: bigint;
  decimals: number;
}

type Db = Kysely<Database> | Transaction<Database>;

/** The transfers of a range that pay ready refunds; each transfer pays one refund at most. */
export async function refundPaymentsIn(db: Db, network: WatchedNetwork, logs: readonly Transfer[]) {
  if (logs.length === 0) return [];
  const recipients = [...new Set(logs.map((l) => l.to))];
  const ready = await repo.readyRefundsTo(db, network.name, recipients);
  if (ready.length === 0) return [];
  // Several Transfer logs of one transaction to one address in one token add up to one transfer.
  const sums = new Map<string, Transfer>();
  for (const l of logs) {
    const key = `${l.txHash} ${l.to} ${l.token}`;
    const seen = sums.get(key);
    sums.set(key, seen ? { ...seen, value: seen.value + l.value } : { ...l });
  }
  const unused = [...sums.values()].sort((a, b) => (a.blockNumber < b.blockNumber ? -1 : 1));
  const found: RefundPayment[] = [];
  for (const refund of ready) {
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
    found.push({ refund, txHash: t.txHash, blockNumber: t.blockNumber, decimals: token.decimals });
  }
  return found;
}

/** Records the payments found, inside the watcher's transaction for the range (its cursor moves with them). */
export async function recordRefundPayments(
  tx: Transaction<Database>,
  payments: readonly RefundPayment[],
  buriedUpTo: bigint,
  now: Date,
): Promise<void> {
  for (const p of payments) {
    const final = p.blockNumber <= buriedUpTo;
    const updated = await repo.updateRefund(tx, p.refund.id, {
      status: final ? 'confirmed' : 'sent',
      tx_hash: p.txHash,
      block_number: p.blockNumber.toString(),
      confirmed_at: final ? now : null,
      updated_at: now,
    });
    if (final) await confirmedEvent(tx, { ...p.refund, ...updated }, p.refund.status, p.decimals, now);
  }
}

/** Sent refunds whose transfer is now deep enough: confirmed, each with its event, in one transaction. */
export async function confirmBuriedRefunds(
  db: Kysely<Database>,
  network: WatchedNetwork,
  depthBlock: bigint,
  now: Date,
): Promise<number> {
  const due = await repo.sentUpTo(db, network.name, depthBlock);
  if (due.length === 0) return 0;
  await db.transaction().execute(async (tx) => {
    for (const r of due) {
      const updated = await repo.updateRefund(tx, r.id, {
        status: 'confirmed',
        confirmed_at: now,
        updated_at: now,
      });
      const decimals = network.tokens.get(r.token ?? '')?.decimals ?? REFUND_TOKEN_DECIMALS;
      await confirmedEvent(tx, { ...r, ...updated }, 'sent', decimals, now);
    }
  });
  return due.length;
}

/** A reorganisation dropped the blocks above `block`: refunds sent in them wait for their transfer again. */
export function forgetRefundsAbove(tx: Transaction<Database>, network: string, block: bigint, now: Date) {
  return repo.unsendAbove(tx, network, block, now);
}

async function confirmedEvent(
  tx: Transaction<Database>,
  refund: RefundRow & { rate: unknown },
  previous: string,
  decimals: number,
  now: Date,
) {
  const tokens = money(refund.token_amount ?? '0');
  const data = {
    refund: toRefund(refund, refund.rate !== null),
    previous_status: previous,
    token: refund.token,
    token_amount: formatUnits(tokens, Math.min(decimals, REFUND_TOKEN_DECIMALS)),
  };
  await repo.insertEvent(
    tx,
    newEvent(refund.project_id, refund.invoice_id, 'refund.confirmed', data, now, refund.livemode),
  );
}
