import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { awaitedAuthorizations, gaslessPayments } from '../gasless/watch.js';
import {
  confirmedPayment,
  confirmingUpTo,
  invoicesAt,
  type ObserveContext,
  observe,
  oldestOpenInvoice,
  type Reported,
  standingAbove,
} from '../invoices/sources.js';
import { fromTokenUnits } from '../money/money.js';
import type { XpubFamily } from '../networks/family.js';
import { mayPay } from '../networks/livemode.js';
import type { Currency } from '../networks/network.js';
import { confirmBuriedRefunds, forgetRefundsAbove, recordRefundPayments } from '../refunds/watch.js';
import * as repo from './repository.js';
import type { AuthorizationLog, ChainReader, TransferLog } from './rpc.js';

/** What a scan needs to know about its network. */
export interface ScannedNetwork {
  name: string;
  /** Its deposit addresses are the invoices' addresses of this family (one per family, contract §15). */
  family: XpubFamily;
  /** A testnet (networks/livemode.ts): its transfers only ever reach test invoices (contract §21). */
  test: boolean;
  confirmations: number;
  maxBlockRange: number;
  /** Currency → token contract (its 20-byte account id, lower-case `0x` hex) and decimals. */
  tokens: ReadonlyMap<string, { address: string; decimals: number }>;
  /** Token contract (the same hex) → its currency and decimals: the same tokens, looked up from a log. */
  byContract: ReadonlyMap<string, { currency: Currency; decimals: number }>;
  /** At most this many payments are written by one step (MAX_PAYMENTS_PER_STEP unless a test says). */
  maxPaymentsPerStep?: number;
}

export interface ScanContext {
  db: Kysely<Database>;
  network: ScannedNetwork;
  reader: ChainReader;
  now: () => Date;
  publicBaseUrl: string;
}

interface BlockRef {
  number: bigint;
  hash: string;
}

/** How far back block hashes are kept (and so how deep a reorganisation is followed exactly). */
const KEEP_BLOCKS = 1024n;
const ANCESTOR_PROBES = 64;

/**
 * A step's payments commit in one transaction, and a transaction must end within the database's
 * statement bound (DATABASE_STATEMENT_TIMEOUT_MS, 5 s by default) or it is rolled back. A watcher back
 * from an outage can find thousands of payments in one range (7,000 confirmed part-payments take
 * about 4 s to write on PostgreSQL, their events most of it): were they written at once, the step
 * would fail on every try and the watcher would never move again. So a step writes at most this many
 * and moves its cursor only past the blocks it wrote; the next step goes on from there.
 */
const MAX_PAYMENTS_PER_STEP = 1000;

const observing = (ctx: ScanContext): ObserveContext => ({
  now: ctx.now(),
  publicBaseUrl: ctx.publicBaseUrl,
});

/**
 * One step of a network's watcher, a payment source: follow a reorganisation if there was one, read
 * the next range of blocks, report the transfers to invoices' addresses, confirm the payments
 * now deep enough. The watcher keeps only its cursor and block hashes; payments belong to the
 * invoices module, and the payments found in a range commit in one transaction with the cursor moving
 * past it, so a step cut short anywhere (an RPC error, a crash) leaves nothing half-done: the range is
 * read again from the same cursor, and nothing is missed or counted twice.
 * Returns true while the watcher is behind the chain's head.
 */
export async function scanStep(ctx: ScanContext): Promise<boolean> {
  const { network, reader } = ctx;
  const head = await reader.head();
  // A block at or below this one has `confirmations` blocks, itself included: its payments are final.
  const buriedUpTo = head - BigInt(network.confirmations) + 1n;
  const { lag, ...start } = await cursorOrStart(ctx, head);
  let cursor: BlockRef = start;
  const atCursor = head < cursor.number ? null : await reader.blockHash(cursor.number);
  // Only a block whose hash changed is a reorganisation (contract §21). A node that does not know a
  // block Paydesk has already read (its head is below it, or one node of a pool is behind the one that
  // answered the head) lags: it is waited for, and nothing it has not seen yet is reversed.
  if (atCursor === null) return waitForNode(ctx, cursor, head, lag);
  if (lag !== null) await repo.setLag(ctx.db, network.name, null, ctx.now());
  if (atCursor !== cursor.hash) cursor = await followReorg(ctx, cursor);
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
    const signed = await signedTransfers(ctx, logs, from, to, buriedUpTo);
    // A log of block `to` from another fork means a reorganisation mid-read: read again.
    if ([...logs, ...signed.used].some((l) => l.blockNumber === to && l.blockHash !== toHash)) return true;
    const reports = [...(await paymentsIn(ctx, logs, buriedUpTo)), ...signed.reports];
    const step = stepOf(reports, logs, { number: to, hash: toHash }, network);
    const passed = blocksPassed(step.logs, step.last);
    await observe(ctx.db, step.reports, observing(ctx), async (tx) => {
      await repo.advance(tx, network.name, passed, ctx.now());
      // The same transfers, read once, may also pay refunds to payers' addresses (contract §18),
      // decided under the refunds' locks in this transaction.
      await recordRefundPayments(tx, network, step.logs, buriedUpTo, ctx.now());
    });
    cursor = step.last;
  }
  await confirmBuried(ctx, min(cursor.number, buriedUpTo));
  // Old hashes are forgotten each time the cursor passes a multiple of 256: the table stays small.
  // (The cursor, not `to`: a step that wrote only part of its range stopped below `to`.)
  if (from <= to && (from - 1n) / 256n !== cursor.number / 256n) {
    await repo.pruneBlocks(ctx.db, network.name, cursor.number - KEEP_BLOCKS);
  }
  return cursor.number < head;
}

/** The cursor, with the lag its watcher last recorded (null: the node kept up). */
type Cursor = BlockRef & { lag: string | null };

async function cursorOrStart(ctx: ScanContext, head: bigint): Promise<Cursor> {
  const row = await repo.cursorOf(ctx.db, ctx.network.name);
  if (row) return { number: BigInt(row.block_number), hash: row.block_hash, lag: row.lag_reason };
  // A network watched for the first time starts where its oldest open invoice was created: no earlier
  // block can pay one. With no open invoice, it starts at the head.
  const oldest = await oldestOpenInvoice(ctx.db, ctx.network.family, ctx.now());
  const first = oldest ? await firstBlockSince(ctx.reader, head, oldest.getTime() - CLOCK_SKEW_MS) : head;
  const number = first > 0n ? first - 1n : 0n;
  const hash = await ctx.reader.blockHash(number);
  if (!hash) throw new Error(`${ctx.network.name}: the node has no block ${number}`);
  await ctx.db
    .transaction()
    .execute((tx) => repo.advance(tx, ctx.network.name, [{ number, hash }], ctx.now()));
  return { number, hash, lag: null };
}

/**
 * The node is behind the cursor: record why (for /v1/health, only when it changed) and end the step
 * without reading, reversing or confirming anything. The job runs again after its interval.
 */
async function waitForNode(
  ctx: ScanContext,
  cursor: BlockRef,
  head: bigint,
  recorded: string | null,
): Promise<false> {
  const reason =
    head < cursor.number
      ? `the node's newest block is ${head}, behind block ${cursor.number} that Paydesk has already read`
      : `the node does not know block ${cursor.number} yet, which Paydesk has already read`;
  if (reason !== recorded) await repo.setLag(ctx.db, ctx.network.name, reason, ctx.now());
  return false;
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

/**
 * What one step writes: the range's payments, or, when they are more than one transaction may write,
 * those of its first blocks up to the one where the limit is reached (a block is never split: its
 * transfers commit together, so the cursor can stand on it). That block is then the step's last.
 */
function stepOf(reports: Reported[], logs: TransferLog[], last: BlockRef, network: ScannedNetwork) {
  const limit = network.maxPaymentsPerStep ?? MAX_PAYMENTS_PER_STEP;
  if (reports.length <= limit) return { reports, logs, last };
  const blockOf = (r: Reported) => (r.observation as { block: BlockRef }).block;
  const cut = reports.map(blockOf).sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0))[
    limit - 1
  ] as BlockRef;
  return {
    reports: reports.filter((r) => blockOf(r).number <= cut.number),
    logs: logs.filter((l) => l.blockNumber <= cut.number),
    last: cut,
  };
}

/** The blocks a range passed that are worth remembering: those with transfers, and its last. */
function blocksPassed(logs: readonly TransferLog[], last: BlockRef): BlockRef[] {
  const blocks = new Map(logs.map((l) => [l.blockNumber, l.blockHash]));
  blocks.set(last.number, last.hash);
  return [...blocks].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([number, hash]) => ({ number, hash }));
}

/**
 * Transfers of a known token to an invoice's address, as payments: one per transaction, invoice and
 * token. A token and network the invoice accepts pays it; another known token, or an accepted one on a
 * network the invoice does not offer (one EVM address serves every EVM network), is recorded as
 * `unaccepted` and never credited (contract §15). Closed invoices are reported too: what reaches them
 * is money after close, recorded and refundable (contract §21); the lifecycle tells which is which.
 */
async function paymentsIn(ctx: ScanContext, logs: TransferLog[], buriedUpTo: bigint): Promise<Reported[]> {
  if (logs.length === 0) return [];
  const { network } = ctx;
  const recipients = [...new Set(logs.map((l) => l.to))];
  const invoices = await invoicesAt(ctx.db, network.family, recipients);
  const byAddress = new Map(invoices.map((i) => [i.address, i]));
  const found = new Map<string, { invoice: (typeof invoices)[number]; log: TransferLog; units: bigint }>();
  for (const log of logs) {
    const invoice = byAddress.get(log.to);
    if (!invoice || !network.byContract.has(log.token)) continue;
    // One EVM address serves every EVM network: faucet tokens on a testnet can reach a live invoice's
    // address. They are not its money in any form (not credited, not unaccepted, not after close).
    if (!mayPay(network, invoice)) continue;
    // Several Transfer logs of one transaction to one invoice in one token add up to one payment.
    const key = `${log.txHash} ${invoice.id} ${log.token}`;
    const seen = found.get(key);
    if (seen) seen.units += log.value;
    else found.set(key, { invoice, log, units: log.value });
  }
  return [...found.values()].map(({ invoice, log, units }) => {
    const token = network.byContract.get(log.token) as { currency: Currency; decimals: number };
    return {
      invoiceId: invoice.id,
      observation: {
        kind: 'payment',
        txHash: log.txHash,
        network: network.name,
        currency: token.currency,
        // Token units become Money exactly (bigint all the way, never a float).
        amount: fromTokenUnits(units, token.decimals),
        confirmed: log.blockNumber <= buriedUpTo,
        accepted: invoice.payment_methods.some(
          (m) => m.network === network.name && m.currency === token.currency,
        ),
        block: { number: log.blockNumber, hash: log.blockHash },
      },
    };
  });
}

/**
 * Signed transfers (contract §23) straight to payout addresses: found by the AuthorizationUsed logs of
 * the authorizations Paydesk accepted (gasless/watch.ts). The node is asked only while some are awaited.
 */
async function signedTransfers(
  ctx: ScanContext,
  logs: TransferLog[],
  from: bigint,
  to: bigint,
  buriedUpTo: bigint,
): Promise<{ used: AuthorizationLog[]; reports: Reported[] }> {
  if (ctx.network.family !== 'evm') return { used: [], reports: [] };
  const awaited = await awaitedAuthorizations(ctx.db, ctx.network.name, ctx.now());
  if (awaited.length === 0) return { used: [], reports: [] };
  const tokens = [...new Set(awaited.map((a) => a.token))];
  const nonces = [...new Set(awaited.map((a) => a.nonce))];
  const used = await ctx.reader.authorizationsUsed(tokens, nonces, from, to);
  return { used, reports: gaslessPayments(ctx.network, awaited, used, logs, buriedUpTo) };
}

/** Payments (and refunds' transfers) still confirming whose block is now deep enough. */
async function confirmBuried(ctx: ScanContext, depthBlock: bigint): Promise<void> {
  await confirmBuriedRefunds(ctx.db, ctx.network, depthBlock, ctx.now());
  const due = await confirmingUpTo(ctx.db, ctx.network.name, depthBlock);
  if (due.length === 0) return;
  const reports = due.map((p) => confirmedPayment(ctx.network.name, p));
  // In bounded batches, oldest blocks first, for the reason given at MAX_PAYMENTS_PER_STEP. A
  // confirmation is the same whichever batch carries it, so a crash between batches loses nothing:
  // the next step finds the rest still confirming.
  const limit = ctx.network.maxPaymentsPerStep ?? MAX_PAYMENTS_PER_STEP;
  for (let i = 0; i < reports.length; i += limit) {
    await observe(ctx.db, reports.slice(i, i + limit), observing(ctx));
  }
}

/**
 * The block under the cursor is no longer on the chain. Walk back through remembered hashes to the
 * newest block the node still has, report every payment above it as reversed and put the cursor there,
 * in one transaction; the next step reads the new fork's blocks (a transaction mined again there is
 * seen again).
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
  const common = ancestor;
  const dropped = await standingAbove(db, network.name, common.number);
  const reports: Reported[] = dropped.map((p) => ({
    invoiceId: p.invoice_id,
    observation: { kind: 'reversal', txHash: p.tx_hash, currency: p.currency },
  }));
  await observe(db, reports, observing(ctx), async (tx) => {
    await repo.rewind(tx, network.name, common, ctx.now());
    await forgetRefundsAbove(tx, network.name, common.number, ctx.now());
  });
  return common;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);
