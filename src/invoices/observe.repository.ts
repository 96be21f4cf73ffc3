import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { XpubFamily } from '../networks/family.js';
import type { InvoiceRow, OfferedMethod, PaymentRow } from './invoice.table.js';

type Tx = Transaction<Database>;
type Db = Kysely<Database>;

/** Locks the rows in id order (the caller sorts), so that overlapping batches cannot deadlock. */
export function lockInvoices(tx: Tx, ids: string[]) {
  return tx.selectFrom('invoices').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

export function paymentsOf(db: Db, invoiceIds: string[]) {
  return db.selectFrom('payments').selectAll().where('invoice_id', 'in', invoiceIds).execute();
}

/** The refunds of these invoices, oldest first: the invoice objects of the events list them. */
export function refundsOf(db: Db, invoiceIds: string[]) {
  return db
    .selectFrom('refunds')
    .select([
      'invoice_id',
      'id',
      sql<string>`amount::text`.as('amount'),
      'status',
      'network',
      'address',
      'tx_hash',
      'created_at',
    ])
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Invoices whose `due_at` (lifecycle.schedule) has come, oldest first, locked for this transaction;
 * rows another instance holds are skipped, not waited for.
 */
export function claimDue(tx: Tx, now: Date, limit: number) {
  return tx
    .selectFrom('invoices')
    .selectAll()
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

/**
 * Upserts payments in one statement. A payment observed again keeps its row; one a reorganisation
 * reversed and that is mined again takes its new amount, times, status and block. The rows travel as
 * one array per column (unnest), as in saveInvoices: a VALUES list would take a parameter per field
 * and overflow the protocol's 65,535 at some 6,500 payments, a number a watcher confirming a backlog
 * of busy blocks reaches in one step.
 */
export async function savePayments(tx: Tx, rows: PaymentRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof PaymentRow>(k: K) => rows.map((r) => r[k]);
  await sql`
    insert into payments (invoice_id, tx_hash, network, currency, amount, status, seen_at, confirmed_at,
                          reversed_at, block_number, block_hash)
    select * from unnest(${col('invoice_id')}::text[], ${col('tx_hash')}::text[], ${col('network')}::text[],
                         ${col('currency')}::text[],
                         ${col('amount')}::numeric[], ${col('status')}::text[], ${col('seen_at')}::timestamptz[],
                         ${col('confirmed_at')}::timestamptz[], ${col('reversed_at')}::timestamptz[],
                         ${col('block_number')}::bigint[], ${col('block_hash')}::text[])
    on conflict (invoice_id, tx_hash, currency) do update set
      amount = excluded.amount,
      status = excluded.status,
      seen_at = excluded.seen_at,
      confirmed_at = excluded.confirmed_at,
      reversed_at = excluded.reversed_at,
      block_number = excluded.block_number,
      block_hash = excluded.block_hash`.execute(tx);
}

/**
 * The only statement in the code base that writes an invoice's status. One statement per transaction,
 * whatever the number of invoices, so the counters trigger locks its rows in one sorted pass (see
 * migrations/0001): transactions that change statuses can never deadlock each other.
 */
export async function saveInvoices(tx: Tx, rows: InvoiceRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof InvoiceRow>(k: K) => rows.map((r) => r[k]);
  await sql`
    update invoices set
      status = v.status,
      network = v.network,
      pay_address = v.pay_address,
      paid_at = v.paid_at,
      tx_hash = v.tx_hash,
      paid_late = v.paid_late,
      failure_reason = v.failure_reason,
      amount_paid = v.amount_paid,
      amount_after_close = v.amount_after_close,
      due_at = v.due_at,
      open_until = v.open_until,
      updated_at = v.updated_at
    from unnest(${col('id')}::text[], ${col('status')}::text[], ${col('network')}::text[],
                ${col('pay_address')}::text[], ${col('paid_at')}::timestamptz[],
                ${col('tx_hash')}::text[], ${col('paid_late')}::boolean[], ${col('failure_reason')}::text[],
                ${col('amount_paid')}::numeric[], ${col('amount_after_close')}::numeric[],
                ${col('due_at')}::timestamptz[], ${col('open_until')}::timestamptz[],
                ${col('updated_at')}::timestamptz[])
      as v(id, status, network, pay_address, paid_at, tx_hash, paid_late, failure_reason, amount_paid,
           amount_after_close, due_at, open_until, updated_at)
    where invoices.id = v.id`.execute(tx);
}

/**
 * Invoices with one of the given deposit addresses in the family (an EVM address serves every EVM
 * network), open or closed: a transfer to a closed one is money after close (contract §21), and the
 * lifecycle decides which it is. One probe of the address's unique index per address: the cost
 * follows the transfers, not the number of invoices, open or closed, or of projects.
 */
export async function invoicesAt(db: Db, family: XpubFamily, addresses: string[]) {
  const column = family === 'evm' ? 'evm_address' : 'tron_address';
  const rows = await db
    .selectFrom('invoices')
    .select(['id', `${column} as address`, 'payment_methods', 'livemode'])
    .where(column, '=', (eb) => eb.fn.any(eb.val(addresses)))
    .execute();
  return rows as Array<{ id: string; address: string; payment_methods: OfferedMethod[]; livemode: boolean }>;
}

/** When the oldest invoice that a payment in the family still counts for was created. */
export async function oldestOpenInvoice(db: Db, family: XpubFamily, now: Date): Promise<Date | undefined> {
  const row = await db
    .selectFrom('invoices')
    .select((eb) => eb.fn.min('created_at').as('oldest'))
    .where(family === 'evm' ? 'evm_address' : 'tron_address', 'is not', null)
    .where('open_until', '>', now)
    .executeTakeFirst();
  return row?.oldest ?? undefined;
}

/**
 * Payments on the network still confirming, found in blocks at or below `block`: credited ones, and
 * dust and money after close not yet final.
 */
export function confirmingUpTo(db: Db, network: string, block: bigint) {
  return db
    .selectFrom('payments')
    .select(['invoice_id', 'tx_hash', 'currency', 'amount', 'block_number'])
    .where('network', '=', network)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'pending'),
        eb.and([eb('status', 'in', ['dust', 'after_close']), eb('confirmed_at', 'is', null)]),
      ]),
    )
    .where('block_number', '<=', block.toString())
    .orderBy('block_number')
    .execute();
}

/** Payments on the network standing (confirming or confirmed) in blocks above `block`. */
export function standingAbove(db: Db, network: string, block: bigint) {
  return db
    .selectFrom('payments')
    .select(['invoice_id', 'tx_hash', 'currency'])
    .where('network', '=', network)
    .where('status', '<>', 'reversed')
    .where('block_number', '>', block.toString())
    .execute();
}

/**
 * Solana invoices by reference (contract §24): the invoices among `keys` (every account key of a
 * batch of transactions), one probe each of the unique reference index; open or closed, as for
 * addresses (invoicesAt).
 */
export async function invoicesByReference(db: Db, keys: string[]) {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('invoices')
    .select(['id', 'solana_reference', 'solana_address', 'payment_methods', 'livemode'])
    .where('solana_reference', '=', (eb) => eb.fn.any(eb.val(keys)))
    .execute();
  return rows as Array<{
    id: string;
    solana_reference: string;
    solana_address: string;
    payment_methods: OfferedMethod[];
    livemode: boolean;
  }>;
}

/**
 * The Solana wallets a payment may still count for (open invoices and their late window), with when
 * the oldest such invoice of each was made: the token accounts the Solana watcher follows.
 */
export async function solanaWallets(db: Db, now: Date) {
  const rows = await db
    .selectFrom('invoices')
    .select(['solana_address', (eb) => eb.fn.min('created_at').as('since')])
    .where('solana_reference', 'is not', null)
    .where('open_until', '>', now)
    .groupBy('solana_address')
    .execute();
  return rows as Array<{ solana_address: string; since: Date }>;
}
