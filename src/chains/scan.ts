import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Observation } from '../invoices/lifecycle.js';
import { observeMany } from '../invoices/transition.js';
import * as repo from './repository.js';
import type { ChainReader, TransferLog } from './rpc.js';
import { fromTokenUnits } from './units.js';

/** What a scan needs to know about its network. */
export interface ScannedNetwork {
  name: string;
  confirmations: number;
  maxBlockRange: number;
  /** Currency → token contract (lower-case address) and decimals. */
  tokens: ReadonlyMap<string, { address: string; decimals: number }>;
  /** Token contract (lower-case address) → decimals: the same tokens, looked up from a log. */
  decimals: ReadonlyMap<string, number>;
}

export interface ScanContext {
  db: Kysely<Database>;
  network: ScannedNetwork;
  reader: ChainReader;
  now: () => Date;
  publicBaseUrl: string;
}

/** How far back block hashes are kept (and so how deep a reorganisation is followed exactly). */
const KEEP_BLOCKS = 1024n;
const ANCESTOR_PROBES = 64;

/**
 * One step of a network's watcher: follow a reorganisation if there was one, read the next range of
 * blocks, record the transfers to open invoices' addresses, confirm those deep enough, and move the
 * cursor. Every write is idempotent and the cursor moves last, so a step cut short anywhere (an RPC
 * error, a crash) is simply done again from the same cursor: nothing is missed or counted twice.
 * Returns true while the watcher is behind the chain's head.
 */
export async function scanStep(ctx: ScanContext): Promise<boolean> {
  const { db, network, reader } = ctx;
  const head = await reader.head();
  // A block at or below this one has `confirmations` blocks, itself included: its payments are final.
  const buriedUpTo = head - BigInt(network.confirmations) + 1n;
  let cursor = await cursorOrStart(ctx, head);
  if ((await reader.blockHash(cursor.number)) !== cursor.hash) {
    cursor = await followReorg(ctx, cursor);
  }
  const from = cursor.number + 1n;
  const to = min(head, cursor.number + BigInt(network.maxBlockRange));
  if (from <= to) {
    const toHash = await reader.blockHash(to);
    if (!toHash) return true; // the chain just got shorter: start again from the top
    const logs = await reader.transfers(
      [...network.tokens.values()].map((t) => t.address),
      from,
      to,
    );
    // A log of block `to` from another fork means a reorganisation mid-read: read again.
    if (logs.some((l) => l.blockNumber === to && l.blockHash !== toHash)) return true;
    await recordPayments(ctx, logs, buriedUpTo);
    const blocks = new Map(logs.map((l) => [l.blockNumber, l.blockHash]));
    blocks.set(to, toHash);
    const passed = [...blocks]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([number, hash]) => ({ number, hash }));
    await repo.advance(db, network.name, passed, ctx.now());
    cursor = { number: to, hash: toHash };
  }
  await confirmBuried(ctx, min(cursor.number, buriedUpTo));
  // Old hashes are forgotten each time the cursor passes a multiple of 256: the table stays small.
  if (from <= to && (from - 1n) / 256n !== to / 256n) {
    await repo.pruneBlocks(db, network.name, to - KEEP_BLOCKS);
  }
  return cursor.number < head;
}

interface BlockRef {
  number: bigint;
  hash: string;
}

async function cursorOrStart(ctx: ScanContext, head: bigint): Promise<BlockRef> {
  const row = await repo.cursorOf(ctx.db, ctx.network.name);
  if (row) return { number: BigInt(row.block_number), hash: row.block_hash };
  // A network watched for the first time starts where its oldest open invoice was created: no earlier
  // block can pay one. With no open invoice, it starts at the head.
  const oldest = await repo.oldestOpenInvoice(ctx.db, ctx.network.name, ctx.now());
  const first = oldest ? await firstBlockSince(ctx.reader, head, oldest.getTime() - CLOCK_SKEW_MS) : head;
  const number = first > 0n ? first - 1n : 0n;
  const hash = await ctx.reader.blockHash(number);
  if (!hash) throw new Error(`${ctx.network.name}: the node has no block ${number}`);
  await repo.advance(ctx.db, ctx.network.name, [{ number, hash }], ctx.now());
  return { number, hash };
}

/** Block timestamps and our clock may disagree a little; starting a few minutes early costs nothing. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** The first block stamped at or after `sinceMs` (a binary search: about 25 calls for any chain). */
async function firstBlockSince(reader: ChainReader, head: bigint, sinceMs: number): Promise<bigint> {
  const since = BigInt(Math.floor(sinceMs / 1000));
  let lo = 0n;
  let hi = head;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if ((await reader.blockTime(mid)) < since) lo = mid + 1n;
    else hi = mid;
  }
  return lo;
}

/** Matches transfers to open invoices, records them, and feeds them to the lifecycle as payments. */
async function recordPayments(ctx: ScanContext, logs: TransferLog[], buriedUpTo: bigint): Promise<void> {
  if (logs.length === 0) return;
  const { db, network } = ctx;
  const recipients = [...new Set(logs.map((l) => l.to))];
  const invoices = await repo.openInvoicesAt(db, network.name, recipients, ctx.now());
  if (invoices.length === 0) return;
  const byAddress = new Map(invoices.map((i) => [i.pay_address, i]));
  // One payment per transaction and invoice: several Transfer logs of one transaction add up.
  const found = new Map<string, repo.FoundTransfer>();
  for (const log of logs) {
    const invoice = byAddress.get(log.to);
    // Only the invoice's own token counts; another token sent to the address is not a payment of it.
    if (!invoice || network.tokens.get(invoice.currency)?.address !== log.token) continue;
    const key = `${log.txHash} ${invoice.id}`;
    const seen = found.get(key);
    if (seen) seen.units += log.value;
    else {
      found.set(key, {
        txHash: log.txHash,
        invoiceId: invoice.id,
        token: log.token,
        units: log.value,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        status: log.blockNumber <= buriedUpTo ? 'confirmed' : 'seen',
      });
    }
  }
  const transfers = [...found.values()];
  await observeMany(
    db,
    transfers.map((t) => ({
      invoiceId: t.invoiceId,
      observation: payment(t.txHash, t.units, network.decimals.get(t.token), t.status === 'confirmed'),
    })),
    ctx.now(),
    ctx.publicBaseUrl,
  );
  await repo.recordTransfers(db, network.name, transfers);
}

/** Token units become the lifecycle's 10^-18 units exactly (bigint all the way, never a float). */
function payment(
  txHash: string,
  units: bigint,
  decimals: number | undefined,
  confirmed: boolean,
): Observation {
  if (decimals === undefined) throw new Error(`no decimals known for the token of ${txHash}`);
  return { kind: 'payment', txHash, amount: fromTokenUnits(units, decimals), confirmed };
}

async function confirmBuried(ctx: ScanContext, depthBlock: bigint): Promise<void> {
  const { db, network } = ctx;
  const due = await repo.transfersToConfirm(db, network.name, depthBlock);
  if (due.length === 0) return;
  await observeMany(
    db,
    due.map((t) => ({
      invoiceId: t.invoice_id,
      observation: payment(t.tx_hash, BigInt(t.units), network.decimals.get(t.token), true),
    })),
    ctx.now(),
    ctx.publicBaseUrl,
  );
  await repo.setTransferStatus(db, network.name, due, 'confirmed');
}

/**
 * The block under the cursor is no longer on the chain. Walk back through remembered hashes to the
 * newest block the node still has, reverse every transfer above it, and put the cursor there; the
 * next step reads the new fork's blocks (a transaction mined again there is seen again).
 */
async function followReorg(ctx: ScanContext, cursor: BlockRef): Promise<BlockRef> {
  const { db, network, reader } = ctx;
  let ancestor: BlockRef | undefined;
  for (const b of await repo.recentBlocks(db, network.name, cursor.number, ANCESTOR_PROBES)) {
    const number = BigInt(b.block_number);
    if ((await reader.blockHash(number)) === b.block_hash) {
      ancestor = { number, hash: b.block_hash };
      break;
    }
  }
  if (!ancestor) {
    // Deeper than anything remembered: go back as far as hashes are kept and read again from there.
    const number = max(0n, cursor.number - KEEP_BLOCKS);
    const hash = await reader.blockHash(number);
    if (!hash) throw new Error(`${network.name}: the node has no block ${number}`);
    ancestor = { number, hash };
  }
  const dropped = await repo.transfersAbove(db, network.name, ancestor.number);
  await observeMany(
    db,
    dropped.map((t) => ({ invoiceId: t.invoice_id, observation: { kind: 'reversal', txHash: t.tx_hash } })),
    ctx.now(),
    ctx.publicBaseUrl,
  );
  await repo.setTransferStatus(db, network.name, dropped, 'reversed');
  await repo.rewind(db, network.name, ancestor, ctx.now());
  return ancestor;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
