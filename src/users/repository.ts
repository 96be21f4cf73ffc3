import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DashboardUserTable } from './user.table.js';

type Db = Kysely<Database> | Transaction<Database>;

export function insertUser(db: Db, row: DashboardUserTable) {
  return db.insertInto('dashboard_users').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('dashboard_users')
    .selectAll()
    .where('email', '=', email)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

export function findUserById(db: Db, id: string) {
  return db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user of this account only: another account's user id is not found. */
export function findUser(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('dashboard_users')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

export function listUsers(db: Db, accountId: string) {
  return db
    .selectFrom('dashboard_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countOwners(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('dashboard_users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('role', '=', 'owner')
    .where('removed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function updateUser(
  db: Db,
  id: string,
  changes: Partial<
    Pick<
      DashboardUserTable,
      | 'password_hash'
      | 'last_sign_in_at'
      | 'removed_at'
      | 'totp_secret'
      | 'totp_pending'
      | 'totp_last_step'
      | 'role'
    >
  >,
) {
  return db
    .updateTable('dashboard_users')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records that a code of time step `step` was used; false when one of that step or a later one was
 * already (a replay): one conditional update, so two sign-ins with one code cannot both pass.
 */
export async function advanceTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('dashboard_users')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Users whose TOTP secret (or pending one) is still in clear, as versions before issue 33 kept it. */
export function usersWithClearTotp(db: Db) {
  const clear =
    (column: 'totp_secret' | 'totp_pending') => (eb: ExpressionBuilder<Database, 'dashboard_users'>) =>
      eb.and([eb(column, 'is not', null), eb(column, 'not like', 'sealed:%')]);
  return db
    .selectFrom('dashboard_users')
    .select(['id', 'totp_secret', 'totp_pending'])
    .where((eb) => eb.or([clear('totp_secret')(eb), clear('totp_pending')(eb)]))
    .execute();
}

type TotpValues = { totp_secret: string | null; totp_pending: string | null };

export function replaceTotpValues(db: Db, id: string, from: TotpValues, to: TotpValues) {
  const same = (column: keyof TotpValues, value: string | null) =>
    value === null ? sql<boolean>`${sql.ref(column)} is null` : sql<boolean>`${sql.ref(column)} = ${value}`;
  return db
    .updateTable('dashboard_users')
    .set(to)
    .where('id', '=', id)
    .where(same('totp_secret', from.totp_secret))
    .where(same('totp_pending', from.totp_pending))
    .execute();
}

export function insertInvite(
  db: Db,
  row: { token_hash: Buffer; user_id: string; expires_at: Date; created_at: Date },
) {
  return db
    .insertInto('dashboard_invites')
    .values({ ...row, used_at: null })
    .execute();
}

/** Ends every link of the user not yet used: a new one replaces them (re-invite, reset). */
export function deleteOpenInvites(db: Db, userId: string) {
  return db
    .deleteFrom('dashboard_invites')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** An invite that is neither used nor expired, with its user (still there). */
export function findOpenInvite(db: Db, tokenHash: Buffer, now: Date) {
  return db
    .selectFrom('dashboard_invites as i')
    .innerJoin('dashboard_users as u', 'u.id', 'i.user_id')
    .select(['i.user_id', 'u.email', 'u.account_id', 'u.role'])
    .where('i.token_hash', '=', tokenHash)
    .where('i.used_at', 'is', null)
    .where('i.expires_at', '>', now)
    .where('u.removed_at', 'is', null)
    .executeTakeFirst();
}

/** Takes the invite: only one of two concurrent uses finds it open. */
export function useInvite(db: Db, tokenHash: Buffer, now: Date) {
  return db
    .updateTable('dashboard_invites')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}

export function insertSession(
  db: Db,
  row: {
    token_hash: Buffer;
    user_id: string;
    csrf_token: string;
    needs_totp: boolean;
    now: Date;
    expires_at: Date;
  },
) {
  const { now, ...rest } = row;
  return db
    .insertInto('dashboard_sessions')
    .values({ ...rest, project_id: null, created_at: now, last_seen_at: now })
    .execute();
}

/** One indexed read per request: the session, its user and the account's status. */
export function findSession(db: Db, tokenHash: Buffer, now: Date) {
  return db
    .selectFrom('dashboard_sessions as s')
    .innerJoin('dashboard_users as u', 'u.id', 's.user_id')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select([
      's.csrf_token',
      's.project_id',
      's.needs_totp',
      's.last_seen_at',
      'u.id as user_id',
      'u.email',
      'u.role',
      'u.account_id',
      'u.totp_secret',
      'a.status as account_status',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .where('u.removed_at', 'is', null)
    .executeTakeFirst();
}

export function updateSession(
  db: Db,
  tokenHash: Buffer,
  changes: { last_seen_at?: Date; expires_at?: Date; project_id?: string | null; needs_totp?: boolean },
) {
  return db.updateTable('dashboard_sessions').set(changes).where('token_hash', '=', tokenHash).execute();
}

export function deleteSession(db: Db, tokenHash: Buffer) {
  return db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends the user's sessions (but `except`); how many there were. */
export async function deleteUserSessions(db: Db, userId: string, except?: Buffer): Promise<number> {
  let q = db.deleteFrom('dashboard_sessions').where('user_id', '=', userId);
  if (except) q = q.where('token_hash', '<>', except);
  const [result] = await q.execute();
  return Number(result?.numDeletedRows ?? 0);
}
