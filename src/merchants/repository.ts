import {
  type Insertable,
  type Kysely,
  type RawBuilder,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import type { Database } from '../db/schema.js';
import { type Placeholders, statement } from '../db/statement.js';
import type { PaymentMethod } from '../networks/methods.js';
import type { AccountTable, ApiKeyRow, ApiKeyTable, ProjectTable } from './merchant.table.js';

type Db = Kysely<Database> | Transaction<Database>;

/** The channel every instance listens on to forget cached API-key verifications. */
export const AUTH_CHANNEL = 'paydesk_auth';

export function insertAccount(db: Db, row: AccountTable) {
  return db.insertInto('accounts').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateAccount(
  db: Db,
  id: string,
  changes: Partial<Pick<AccountTable, 'status' | 'updated_at'>>,
) {
  return db.updateTable('accounts').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function hasAnyAccount(db: Db): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export function findAccount(db: Db, id: string) {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertProject(db: Db, row: Insertable<ProjectTable>) {
  return db.insertInto('projects').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateProject(db: Db, id: string, changes: Updateable<ProjectTable>) {
  return db.updateTable('projects').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Files the single `xpub` of projects of before migration 0010 under its family (service.fileLegacyXpubs). */
export async function fileLegacyXpubs(db: Db, tronNetworks: string[]): Promise<void> {
  await sql`
    update projects set
      tron_xpub = case when network = any(${tronNetworks}::text[]) then xpub end,
      evm_xpub = case when network = any(${tronNetworks}::text[]) then null else xpub end
    where xpub is not null and evm_xpub is null and tron_xpub is null and network <> 'sandbox'`.execute(db);
}

export function lockProject(db: Db, id: string) {
  return db.selectFrom('projects').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findProject(db: Db, id: string) {
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertApiKey(db: Db, row: ApiKeyTable) {
  return db.insertInto('api_keys').values(row).returning(apiKeyColumns).executeTakeFirstOrThrow();
}

const apiKeyColumns = [
  'id',
  'project_id',
  'name',
  'last4',
  'status',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

export function revokeApiKey(db: Db, id: string, now: Date) {
  return db
    .updateTable('api_keys')
    .set({ status: 'revoked', revoked_at: sql`coalesce(revoked_at, ${now})` })
    .where('id', '=', id)
    .returning(apiKeyColumns)
    .executeTakeFirst();
}

export function findApiKey(db: Db, id: string) {
  return db.selectFrom('api_keys').select(apiKeyColumns).where('id', '=', id).executeTakeFirst();
}

export function touchApiKey(db: Db, id: string, now: Date) {
  return db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

export interface KeyVerification {
  key_id: string;
  key_hash: Buffer;
  key_status: ApiKeyRow['status'];
  last_used_at: Date | null;
  project_id: string;
  project_status: 'active' | 'inactive';
  currency: string;
  network: string;
  payment_methods: PaymentMethod[];
  underpayment_tolerance_percent: string;
  invoice_ttl_seconds: number;
  payout_address: string | null;
  solana_address: string | null;
  has_evm_xpub: boolean;
  account_status: 'active' | 'inactive';
}

const findKeyStatement = statement('api_key_verify', (p: Placeholders<{ hash: Buffer }>, db) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('projects as p', 'p.id', 'k.project_id')
    .innerJoin('accounts as a', 'a.id', 'p.account_id')
    .select([
      'k.id as key_id',
      'k.key_hash',
      'k.status as key_status',
      'k.last_used_at',
      'p.id as project_id',
      'p.status as project_status',
      'p.currency',
      'p.network',
      'p.payment_methods',
      'p.underpayment_tolerance_percent',
      'p.invoice_ttl_seconds',
      'p.payout_address',
      'p.solana_address',
      sql<boolean>`p.evm_xpub is not null`.as('has_evm_xpub'),
      'a.status as account_status',
    ])
    .where('k.key_hash', '=', p.hash),
);

/** One indexed read answers every question authentication asks about a key. */
export async function findKeyByHash(db: Db, hash: Buffer): Promise<KeyVerification | undefined> {
  return (await findKeyStatement(db, { hash }))[0];
}

/**
 * True while the key, its project and its account are all active. Merchant operations put it in
 * their own statement, so a request authenticated from the cache acts only if the key is still live
 * in that statement's snapshot (see authenticate.ts).
 */
export function liveKey(keyId: string | RawBuilder<string>) {
  return sql<boolean>`exists (
    select 1 from api_keys k
    join projects p on p.id = k.project_id
    join accounts a on a.id = p.account_id
    where k.id = ${keyId} and k.status = 'active' and p.status = 'active' and a.status = 'active')`;
}

/**
 * liveKey for a sale at a till (src/pos), which has no API key: the till active, on this project,
 * and the project and its account active, in the statement's own snapshot.
 */
export function liveTill(tillId: RawBuilder<string>, projectId: RawBuilder<string>) {
  return sql<boolean>`exists (
    select 1 from tills t
    join projects p on p.id = t.project_id
    join accounts a on a.id = p.account_id
    where t.id = ${tillId} and t.project_id = ${projectId} and t.active
      and p.status = 'active' and a.status = 'active')`;
}

/** Tells every instance (at commit) to drop cached key verifications. */
export async function notifyAuthChanged(db: Db): Promise<void> {
  await sql`select pg_notify(${AUTH_CHANNEL}, '')`.execute(db);
}

/** An account's projects, oldest first (the dashboard's project select). */
export function listAccountProjects(db: Db, accountId: string) {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A project's keys, newest first, without their hashes. */
export function listApiKeys(db: Db, projectId: string) {
  return db
    .selectFrom('api_keys')
    .select(apiKeyColumns)
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
