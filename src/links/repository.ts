import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { liveKey } from '../merchants/repository.js';
import type { PaymentMethod } from '../networks/methods.js';
import type { PaymentLinkRow, PaymentLinkTable } from './link.table.js';

type Db = Kysely<Database>;

/** The request's API key must still be live (merchants/authenticate.ts); the dashboard passes none. */
const keyLive = (keyId: string | undefined) => (keyId === undefined ? sql<boolean>`true` : liveKey(keyId));

/** What a link's project gives its invoices, and whether it may take payments now. */
export interface LinkProject {
  account_id: string;
  project_name: string;
  project_currency: string;
  payment_methods: PaymentMethod[];
  underpayment_tolerance_percent: string;
  invoice_ttl_seconds: number;
  payout_address: string | null;
  solana_address: string | null;
  has_evm_xpub: boolean;
  /** The project and its account are both active. */
  open: boolean;
}

function projectColumns() {
  return [
    'p.account_id',
    'p.name as project_name',
    'p.currency as project_currency',
    'p.payment_methods',
    'p.underpayment_tolerance_percent',
    'p.invoice_ttl_seconds',
    'p.payout_address',
    'p.solana_address',
    sql<boolean>`p.evm_xpub is not null`.as('has_evm_xpub'),
    sql<boolean>`p.status = 'active' and a.status = 'active'`.as('open'),
  ] as const;
}

/** The project a link is made in; undefined when the request's key is no longer live. */
export function findProject(db: Db, projectId: string, keyId: string | undefined) {
  return db
    .selectFrom('projects as p')
    .innerJoin('accounts as a', 'a.id', 'p.account_id')
    .select(projectColumns())
    .where('p.id', '=', projectId)
    .where(keyLive(keyId))
    .executeTakeFirst() as Promise<LinkProject | undefined>;
}

/** A link by id alone, with its project: the public page's read. */
export function findPublicLink(db: Db, id: string) {
  return db
    .selectFrom('payment_links as l')
    .innerJoin('projects as p', 'p.id', 'l.project_id')
    .innerJoin('accounts as a', 'a.id', 'p.account_id')
    .selectAll('l')
    .select(projectColumns())
    .where('l.id', '=', id)
    .executeTakeFirst() as Promise<(PaymentLinkRow & LinkProject) | undefined>;
}

export function insertLink(tx: Transaction<Database>, row: PaymentLinkTable) {
  return tx.insertInto('payment_links').values(row).returningAll().executeTakeFirstOrThrow();
}

/** One of the project's links; undefined for another project's or when the key is no longer live. */
export function findLink(db: Db, projectId: string, id: string, keyId: string | undefined) {
  return db
    .selectFrom('payment_links')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where(keyLive(keyId))
    .executeTakeFirst();
}

/** A page of the project's links, newest first, with their total and whether the key is live. */
export async function listLinks(
  db: Db,
  projectId: string,
  page: { limit: number; offset: number },
  keyId: string | undefined,
) {
  const { total, live } = await db
    .selectNoFrom([
      sql<string>`(select count(*) from payment_links where project_id = ${projectId})`.as('total'),
      keyLive(keyId).as('live'),
    ])
    .executeTakeFirstOrThrow();
  const rows = live
    ? await db
        .selectFrom('payment_links')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute()
    : [];
  return { rows, total: Number(total), live };
}

/** The link, locked for a change in this transaction. */
export function lockLink(
  tx: Transaction<Database>,
  projectId: string,
  id: string,
  keyId: string | undefined,
) {
  return tx
    .selectFrom('payment_links')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where(keyLive(keyId))
    .forUpdate()
    .executeTakeFirst();
}

export function updateLink(
  tx: Transaction<Database>,
  id: string,
  changes: Partial<Omit<PaymentLinkTable, 'id' | 'project_id' | 'uses' | 'created_at'>>,
) {
  return tx
    .updateTable('payment_links')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Takes one use of the link for an invoice about to be inserted in the same transaction: true when
 * the link is active, unexpired, under max_uses, and its project and account active. The update
 * holds the row's lock until commit; a concurrent claim waits for it, then re-checks `uses` against
 * the committed count (PostgreSQL re-evaluates the condition on the updated row), so two payers at
 * max_uses - 1 never both get an invoice.
 */
export async function claimUse(tx: Db, id: string, now: Date): Promise<boolean> {
  const claimed = await tx
    .updateTable('payment_links as l')
    .set({ uses: sql`l.uses + 1`, updated_at: now })
    .where('l.id', '=', id)
    .where('l.active', '=', true)
    .where((eb) => eb.or([eb('l.max_uses', 'is', null), eb('l.uses', '<', eb.ref('l.max_uses'))]))
    .where((eb) => eb.or([eb('l.expires_at', 'is', null), eb('l.expires_at', '>', now)]))
    .where(sql<boolean>`exists (select 1 from projects p join accounts a on a.id = p.account_id
      where p.id = l.project_id and p.status = 'active' and a.status = 'active')`)
    .returning('l.id')
    .executeTakeFirst();
  return claimed !== undefined;
}
