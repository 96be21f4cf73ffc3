import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { LATE_PAYMENT_WINDOW_MS } from '../invoices/lifecycle.js';
import type { ChainTransferStatus } from './chain.table.js';

type Db = Kysely<Database>;

/**
 * Takes the next child index of the project's xpub, atomically: the upsert locks the key's row, so
 * concurrent creates on any number of instances each get their own index, and an index is never
 * handed out twice (one burnt by a failed or replayed create is simply skipped). The xpub is read in
 * the same statement, so an index always belongs to the key the address is derived from.
 */
export async function takeAddressIndex(db: Db, projectId: string) {
  const { rows } = await sql<{ xpub: string; index: string }>`
    insert into xpub_indexes (xpub, next_index)
    select xpub, 1 from projects where id = ${projectId} and xpub is not null
    on conflict (xpub) do update set next_index = xpub_indexes.next_index + 1
    returning xpub, next_index - 1 as index`.execute(db);
  return rows[0];
}

export function cursorOf(db: Db, network: string) {
  return db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirst();
}

/** Moves the cursor and remembers the hashes of the blocks passed, in one transaction. */
export async function advance(
  db: Db,
  network: string,
  blocks: Array<{ number: bigint; hash: string }>,
  now: Date,
): Promise<void> {
  const last = blocks.at(-1);
  if (!last) return;
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('chain_blocks')
      .values(blocks.map((b) => ({ network, block_number: b.number.toString(), block_hash: b.hash })))
      .onConflict((oc) =>
        oc
          .columns(['network', 'block_number'])
          .doUpdateSet((eb) => ({ block_hash: eb.ref('excluded.block_hash') })),
      )
      .execute();
    await tx
      .insertInto('chain_cursors')
      .values({ network, block_number: last.number.toString(), block_hash: last.hash, updated_at: now })
      .onConflict((oc) =>
        oc.column('network').doUpdateSet({
          block_number: last.number.toString(),
          block_hash: last.hash,
          updated_at: now,
        }),
      )
      .execute();
  });
}

/** After a reorganisation: forget every block above the common ancestor and put the cursor on it. */
export async function rewind(db: Db, network: string, ancestor: { number: bigint; hash: string }, now: Date) {
  await db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('chain_blocks')
      .where('network', '=', network)
      .where('block_number', '>', ancestor.number.toString())
      .execute();
    await tx
      .updateTable('chain_cursors')
      .set({ block_number: ancestor.number.toString(), block_hash: ancestor.hash, updated_at: now })
      .where('network', '=', network)
      .execute();
  });
}

/** Remembered block hashes below `below`, newest first: candidates for the common ancestor. */
export function recentBlocks(db: Db, network: string, below: bigint, limit: number) {
  return db
    .selectFrom('chain_blocks')
    .select(['block_number', 'block_hash'])
    .where('network', '=', network)
    .where('block_number', '<', below.toString())
    .orderBy('block_number', 'desc')
    .limit(limit)
    .execute();
}

/** Old block hashes are only needed as far back as a reorganisation can reach. */
export function pruneBlocks(db: Db, network: string, below: bigint) {
  return db
    .deleteFrom('chain_blocks')
    .where('network', '=', network)
    .where('block_number', '<', below.toString())
    .execute();
}

/** Pending, or expired within the 24 h late window (contract §9): a payment still counts. */
function canStillBePaid(now: Date) {
  const lateSince = new Date(now.getTime() - LATE_PAYMENT_WINDOW_MS);
  return (eb: ExpressionBuilder<Database, 'invoices'>) =>
    eb.or([
      eb('status', '=', 'pending'),
      eb.and([eb('status', '=', 'expired'), eb('payment_expires_at', '>', lateSince)]),
    ]);
}

/**
 * The invoices still able to take a payment (pending, or expired within the 24 h late window) among
 * the given recipients. One index probe per address: the cost follows the transfers, not the number
 * of open invoices.
 */
export function openInvoicesAt(db: Db, network: string, addresses: string[], now: Date) {
  return db
    .selectFrom('invoices')
    .select(['id', 'pay_address', 'currency'])
    .where('network', '=', network)
    .where('pay_address', '=', (eb) => eb.fn.any(eb.val(addresses)))
    .where(canStillBePaid(now))
    .execute();
}

/** When the oldest invoice that can still be paid on the network was created. */
export async function oldestOpenInvoice(db: Db, network: string, now: Date): Promise<Date | undefined> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.min('created_at').as('oldest'))
    .where('network', '=', network)
    .where(canStillBePaid(now))
    .executeTakeFirst();
  return row?.oldest ?? undefined;
}

export interface FoundTransfer {
  txHash: string;
  invoiceId: string;
  token: string;
  units: bigint;
  blockNumber: bigint;
  blockHash: string;
  status: ChainTransferStatus;
}

/**
 * Records transfers found on chain. A transfer seen again (a rescan after a restart) keeps its row;
 * one that a reorganisation had reversed and that is mined again takes its new block.
 */
export async function recordTransfers(db: Db, network: string, found: FoundTransfer[]): Promise<void> {
  if (found.length === 0) return;
  await db
    .insertInto('chain_transfers')
    .values(
      found.map((t) => ({
        network,
        tx_hash: t.txHash,
        invoice_id: t.invoiceId,
        token: t.token,
        units: t.units.toString(),
        block_number: t.blockNumber.toString(),
        block_hash: t.blockHash,
        status: t.status,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['network', 'tx_hash', 'invoice_id'])
        .doUpdateSet((eb) => ({
          units: eb.ref('excluded.units'),
          block_number: eb.ref('excluded.block_number'),
          block_hash: eb.ref('excluded.block_hash'),
          status: eb.ref('excluded.status'),
        }))
        .where('chain_transfers.status', '=', 'reversed'),
    )
    .execute();
}

/** Seen transfers at or below `depthBlock`: buried deep enough to count as confirmed. */
export function transfersToConfirm(db: Db, network: string, depthBlock: bigint) {
  return db
    .selectFrom('chain_transfers')
    .selectAll()
    .where('network', '=', network)
    .where('status', '=', 'seen')
    .where('block_number', '<=', depthBlock.toString())
    .orderBy('block_number')
    .execute();
}

/** Transfers in blocks above the common ancestor of a reorganisation: no longer on the chain. */
export function transfersAbove(db: Db, network: string, ancestor: bigint) {
  return db
    .selectFrom('chain_transfers')
    .selectAll()
    .where('network', '=', network)
    .where('status', '<>', 'reversed')
    .where('block_number', '>', ancestor.toString())
    .execute();
}

export async function setTransferStatus(
  db: Db,
  network: string,
  rows: Array<{ tx_hash: string; invoice_id: string }>,
  status: ChainTransferStatus,
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update chain_transfers set status = ${status}
    from unnest(${rows.map((r) => r.tx_hash)}::text[], ${rows.map((r) => r.invoice_id)}::text[]) as v(tx_hash, invoice_id)
    where chain_transfers.network = ${network}
      and chain_transfers.tx_hash = v.tx_hash and chain_transfers.invoice_id = v.invoice_id`.execute(db);
}
