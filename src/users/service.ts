import type { Kysely } from 'kysely';
import { type Actor, audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { newId } from '../ids.js';
import { findAccount } from '../merchants/repository.js';
import { parseEmail } from './email.js';
import { issueLink } from './links.js';
import { burnPasswordCheck, hashPassword, passwordProblem, verifyPassword } from './password.js';
import * as repo from './repository.js';
import { hashToken, hasTokenShape } from './tokens.js';
import type { DashboardUserRow, Role } from './user.table.js';

export { INVITE_TTL_MS } from './links.js';

export interface NewUser {
  email: string;
  role?: Role | undefined;
}

/**
 * Creates a user without a password and a single-use invite link to set one (72 h). The operator's
 * admin API and an owner's Team page both come here. The link's token is returned this once.
 *
 * With `reinvite` (the Team page), an address that is already a user of this account gets a fresh
 * link instead of a refusal, for a user who never used theirs or lost access: older links stop
 * working; the role, password, two-factor and sessions stay as they are (the link replaces the
 * password when used, and using it ends every session). The admin API keeps contract §13's answer:
 * its 201 creates a user.
 */
export async function inviteUser(
  db: Kysely<Database>,
  accountId: string,
  input: NewUser,
  actor: Actor,
  ctx: { now: Date; publicBaseUrl: string; reinvite?: boolean },
) {
  const email = parseEmail(input.email);
  if (!email.ok)
    throw ApiError.validation([{ in: 'body', field: 'email', rule: email.rule, message: email.message }]);
  const account = await findAccount(db, accountId);
  if (!account) throw ApiError.notFound('No account with this id');
  return db.transaction().execute(async (tx) => {
    const existing = await repo.findUserByEmail(tx, email.email);
    if (existing && (!ctx.reinvite || existing.account_id !== account.id)) throw emailTaken();
    if (existing) {
      const inviteUrl = await issueLink(tx, existing.id, ctx);
      await audit(tx, account.id, { actor, now: ctx.now }, 'user.reinvited', existing.email);
      return { user: existing, inviteUrl, reinvited: true };
    }
    const user = await repo
      .insertUser(tx, {
        id: newId('usr'),
        account_id: account.id,
        email: email.email,
        role: input.role ?? 'owner',
        password_hash: null,
        totp_secret: null,
        totp_pending: null,
        totp_last_step: null,
        created_at: ctx.now,
        last_sign_in_at: null,
        removed_at: null,
      })
      .catch((err) => {
        // Two invites of one address at once: the unique index decides, and the loser is told so.
        if ((err as { code?: string }).code === '23505') throw emailTaken();
        throw err;
      });
    const inviteUrl = await issueLink(tx, user.id, ctx);
    await audit(tx, account.id, { actor, now: ctx.now }, 'user.invited', `${user.email} (${user.role})`);
    return { user, inviteUrl, reinvited: false };
  });
}

function emailTaken(): ApiError {
  return ApiError.validation([
    { in: 'body', field: 'email', rule: 'taken', message: 'This email address already has a dashboard user' },
  ]);
}

const INVITE_GONE =
  'This invite link is not valid: it may have been used already or have expired (links last 72 hours). Ask an owner for a new one.';

/** The invite behind a link, while it is open; NOT_FOUND otherwise, whatever the reason. */
export async function openInvite(db: Kysely<Database>, token: string, now: Date) {
  const invite = hasTokenShape(token) ? await repo.findOpenInvite(db, hashToken(token), now) : undefined;
  if (!invite) throw ApiError.notFound(INVITE_GONE);
  return invite;
}

/** Sets the password and spends the link, in one transaction: a link works once. */
export async function acceptInvite(db: Kysely<Database>, token: string, password: string, now: Date) {
  const problem = passwordProblem(password);
  if (problem)
    throw ApiError.validation([{ in: 'body', field: 'password', rule: 'length', message: problem }]);
  if (!hasTokenShape(token)) throw ApiError.notFound(INVITE_GONE);
  const hash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    const used = await repo.useInvite(tx, hashToken(token), now);
    if (!used) throw ApiError.notFound(INVITE_GONE);
    const user = await repo.updateUser(tx, used.user_id, { password_hash: hash });
    if (!user || user.removed_at) throw ApiError.notFound(INVITE_GONE);
    // A new password ends every session the old one opened.
    await repo.deleteUserSessions(tx, user.id);
    await audit(
      tx,
      user.account_id,
      { actor: { id: user.id, email: user.email }, now },
      'user.password_set',
      user.email,
    );
    return user;
  });
}

export const SIGN_IN_FAILED = 'The email or password is not right';

/**
 * The user whose email and password these are, or undefined: one answer for a wrong email and a wrong
 * password (and the same time spent on both).
 */
export async function checkPassword(
  db: Kysely<Database>,
  emailInput: string,
  password: string,
): Promise<DashboardUserRow | undefined> {
  const email = parseEmail(emailInput);
  const user = email.ok ? await repo.findUserByEmail(db, email.email) : undefined;
  if (!user?.password_hash) {
    await burnPasswordCheck(password);
    return undefined;
  }
  return (await verifyPassword(password, user.password_hash)) ? user : undefined;
}

/** Changes one's own password: every other session of the user ends at once. */
export async function changePassword(
  db: Kysely<Database>,
  user: { id: string; account_id: string; email: string },
  current: string,
  next: string,
  keepSession: Buffer,
  now: Date,
) {
  const errors: FieldError[] = [];
  const problem = passwordProblem(next);
  if (problem) errors.push({ in: 'body', field: 'new_password', rule: 'length', message: problem });
  const row = await repo.findUserByEmail(db, user.email);
  if (!row?.password_hash || !(await verifyPassword(current, row.password_hash))) {
    errors.push({
      in: 'body',
      field: 'current_password',
      rule: 'mismatch',
      message: 'The current password is not right',
    });
  }
  if (errors.length > 0) throw ApiError.validation(errors);
  const hash = await hashPassword(next);
  await db.transaction().execute(async (tx) => {
    await repo.updateUser(tx, user.id, { password_hash: hash });
    await repo.deleteUserSessions(tx, user.id, keepSession);
    await audit(
      tx,
      user.account_id,
      { actor: { id: user.id, email: user.email }, now },
      'user.password_set',
      user.email,
    );
  });
}

/** A user of this account; NOT_FOUND for any other id. */
export async function findAccountUser(db: Kysely<Database>, accountId: string, userId: string) {
  const user = await repo.findUser(db, accountId, userId);
  if (!user) throw ApiError.notFound('No user with this id');
  return user;
}

export function listUsers(db: Kysely<Database>, accountId: string) {
  return repo.listUsers(db, accountId);
}

/** Removes a user of the account and ends their sessions at once. The last owner stays. */
export async function removeUser(
  db: Kysely<Database>,
  accountId: string,
  userId: string,
  actor: Actor,
  now: Date,
) {
  return db.transaction().execute(async (tx) => {
    const user = await repo.findUser(tx, accountId, userId);
    if (!user) throw ApiError.notFound('No user with this id');
    if (user.role === 'owner' && (await repo.countOwners(tx, accountId)) <= 1) {
      throw ApiError.validation([
        {
          in: 'path',
          field: 'id',
          rule: 'last_owner',
          message: 'The last owner of an account cannot be removed',
        },
      ]);
    }
    await repo.updateUser(tx, user.id, { removed_at: now });
    await repo.deleteUserSessions(tx, user.id);
    await audit(tx, accountId, { actor, now }, 'user.removed', user.email);
    return user;
  });
}
