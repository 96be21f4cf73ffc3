import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Currency } from '../networks/network.js';
import type { CollectionRow } from './collection.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A payment whose funds are a deposit to collect: a confirmed one, or money after close once final
 * (contract §21); the partial index payments_collectable_idx is on the same condition.
 */
const deposited = sql.raw(`p.status in ('confirmed', 'after_close') and p.confirmed_at is not null`);

/**
 * What a deposit is worth in USD, for the dust rule: every token Paydesk takes is a USD stablecoin,
 * counted at par, so the SQL below compares token amounts with the USD minimum. A token that is not
 * (a euro coin, say) must be priced through src/rates before it is added: this record stops the
 * build until someone decides.
 */
export const AT_PAR: Readonly<Record<Currency, true>> = { USDT: true, USDC: true };

export interface DepositFilter {
  network: string;
  /** PAYDESK_COLLECT_MIN_DEPOSIT_USD: a deposit below it goes only with a larger one of its forwarder. */
  minDeposit: string;
  /** Leave out deposits whose sweep failed after this (automatic collections); all by default. */
  failedBefore?: Date | undefined;
  projectId?: string;
  payout?: string;
}

/**
 * Every uncollected deposit (a forwarder, by its invoice, and a token) matching `f`, with `worth`:
 * whether its forwarder holds a deposit of at least the minimum (contract §22: a smaller one is
 * collected only together with it, never on its own), and its forwarder's oldest payment.
 */
function deposits(f: DepositFilter) {
  const failedBefore = f.failedBefore ?? new Date(8.64e15);
  return sql`
    select d.*, max(d.amount) over w >= ${f.minDeposit}::numeric as worth,
           min(d.since) over w as forwarder_since
    from (
      select i.project_id, i.payout_address, p.invoice_id, p.currency, sum(p.amount) as amount,
             min(p.confirmed_at) as since
      from payments p join invoices i on i.id = p.invoice_id
      where p.network = ${f.network} and ${deposited} and p.collection_id is null
        and i.payout_address is not null
        and (p.sweep_failed_at is null or p.sweep_failed_at < ${failedBefore})
        ${f.projectId ? sql`and i.project_id = ${f.projectId}` : sql``}
        ${f.payout ? sql`and i.payout_address = ${f.payout}` : sql``}
      group by i.project_id, i.payout_address, p.invoice_id, p.currency
    ) d
    window w as (partition by d.invoice_id)`;
}

/**
 * A project's uncollected deposits on a network, per token: what "Collect now" would move
 * (`dust` false), and what waits for a larger deposit of its forwarder (`dust` true).
 */
export async function collectableTotals(db: Db, f: DepositFilter & { projectId: string }) {
  const { rows } = await sql<{ token: string; amount: string; deposits: string; dust: boolean }>`
    with d as (${deposits(f)})
    select currency as token, sum(amount)::text as amount, count(*)::text as deposits, not worth as dust
    from d group by currency, worth order by currency, worth desc`.execute(db);
  return rows;
}

/**
 * Projects with deposits to collect on a network, with their total (at par, in USD) and oldest,
 * leaving out deposits whose sweep failed after `failedBefore` and those waiting as dust.
 */
export async function collectableProjects(db: Db, f: DepositFilter) {
  const { rows } = await sql<{ project_id: string; total: string; oldest: Date }>`
    with d as (${deposits(f)})
    select project_id, sum(amount)::text as total, min(since) as oldest
    from d where worth group by project_id`.execute(db);
  return rows;
}

/**
 * Takes up to `limit` deposits of a project on a network into a new collection, in one transaction:
 * the oldest forwarders first, all bound to one payout, each forwarder whole (so a small deposit never
 * goes without the larger one that carries it). A payment is taken only while it belongs to no
 * collection, re-checked under its row lock, so two instances asking at once never put one deposit in
 * two collections. Undefined when nothing was left.
 */
export async function takeDeposits(
  tx: Transaction<Database>,
  c: { id: string; projectId: string; livemode: boolean; now: Date; limit: number } & DepositFilter,
): Promise<CollectionRow | undefined> {
  const oldest = await sql<{ payout_address: string }>`
    with d as (${deposits(c)})
    select payout_address from d where worth order by since, invoice_id limit 1`.execute(tx);
  const payout = oldest.rows[0]?.payout_address;
  if (!payout) return undefined;
  const collection = await insertQueued(tx, { ...c, payout });
  // Forwarders in order of their oldest payment, whole: the count through a forwarder's last deposit
  // (its peers included) is at most the limit.
  const taken = await sql<{ n: string }>`
    with d as (${deposits({ ...c, payout })}),
    ranked as (
      select invoice_id, currency, count(*) over (order by forwarder_since, invoice_id) as through
      from d where worth
    ),
    marked as (
      update payments p set collection_id = ${c.id}
      from ranked
      where ranked.through <= ${c.limit} and p.invoice_id = ranked.invoice_id
        and p.currency = ranked.currency and p.network = ${c.network}
        and ${deposited} and p.collection_id is null
      returning 1
    )
    select count(*)::text as n from marked`.execute(tx);
  if (Number(taken.rows[0]?.n ?? 0) === 0) {
    await tx.deleteFrom('collections').where('id', '=', c.id).execute();
    return undefined;
  }
  return collection;
}

function insertQueued(
  tx: Transaction<Database>,
  c: { id: string; projectId: string; network: string; livemode: boolean; now: Date; payout: string },
) {
  return tx
    .insertInto('collections')
    .values({
      id: c.id,
      project_id: c.projectId,
      network: c.network,
      livemode: c.livemode,
      payout_address: c.payout,
      phase: 'queued',
      nonce: null,
      signer: null,
      tx_hash: null,
      attempts: 0,
      signed_block: null,
      sent_at: null,
      gas_used: null,
      block_number: null,
      block_hash: null,
      last_error: null,
      fee_needed: null,
      fee_cap: null,
      created_at: c.now,
      confirmed_at: null,
      updated_at: c.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
