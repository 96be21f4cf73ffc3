import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { audit, type Change } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { rateLimitedError } from '../http/rate-limit.js';
import { newId } from '../ids.js';
import { findProject } from '../merchants/repository.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../users/password.js';
import { parseItems } from './items.js';
import { admit, type LockoutRule, PIN_LOCKOUT } from './lockout.js';
import * as repo from './repository.js';
import { signTillSession, verifyTillSession } from './session.js';
import type { TillRow } from './till.table.js';

export { chargeTill } from './charge.js';

/** A PIN is 6 to 12 digits: with 5 tries per 15 minutes, a million PINs take years to guess. */
const PIN = /^[0-9]{6,12}$/;

export interface NewTill {
  name: string;
  pin: string;
  items: string;
}

function tillErrors(input: NewTill): FieldError[] {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name === '' || Array.from(name).length > 100 || /\p{Cc}/u.test(name)) {
    errors.push({
      in: 'body',
      field: 'name',
      rule: 'name',
      message: 'Give the till a name of 1 to 100 characters',
    });
  }
  if (!PIN.test(input.pin)) {
    errors.push({ in: 'body', field: 'pin', rule: 'pin', message: 'The PIN must be 6 to 12 digits' });
  }
  return errors;
}

/** A new till on the project, in the project's currency; the PIN is kept as an scrypt hash only. */
export async function createTill(db: Kysely<Database>, projectId: string, input: NewTill, change: Change) {
  const project = await findProject(db, projectId);
  if (!project) throw ApiError.notFound('No project with this id');
  const { items, errors } = parseItems(input.items, project.currency);
  const all = [...tillErrors(input), ...errors];
  if (all.length > 0) throw ApiError.validation(all);
  const pinHash = await hashPassword(input.pin);
  return db.transaction().execute(async (tx) => {
    const till = {
      id: newId('till'),
      project_id: project.id,
      name: input.name.trim(),
      pin_hash: pinHash,
      session_key: randomBytes(32),
      items,
      currency: project.currency,
      active: true,
      created_at: change.now,
    };
    await repo.insertTill(tx, till);
    await audit(tx, project.account_id, change, 'till.created', `${till.id} (${till.name})`);
    return till;
  });
}

export const listTills = (db: Kysely<Database>, projectId: string) => repo.listProjectTills(db, projectId);

/** Disables a till of the project: its page and every open session on it stop at once. */
export async function disableTill(db: Kysely<Database>, projectId: string, id: string, change: Change) {
  const project = await findProject(db, projectId);
  if (!project) throw ApiError.notFound('No project with this id');
  await db.transaction().execute(async (tx) => {
    if (!(await repo.setTillActive(tx, projectId, id, false)))
      throw ApiError.notFound('No till with this id');
    await audit(tx, project.account_id, change, 'till.disabled', id);
  });
}

/** An active till, or the same NOT_FOUND for an unknown id and a disabled till. */
export async function openTill(db: Kysely<Database>, id: string): Promise<TillRow> {
  const till = id.startsWith('till_') && id.length <= 64 ? await repo.findTill(db, id) : undefined;
  if (!till?.active) throw ApiError.notFound('This till does not exist or is disabled');
  return till;
}

/** The till, when the cookie is this till's own live session; undefined otherwise. */
export async function tillOfSession(db: Kysely<Database>, id: string, cookie: string | undefined, now: Date) {
  const till = await openTill(db, id);
  return verifyTillSession(till.session_key, till.id, cookie, now) ? till : undefined;
}

export type Unlock = { ok: true; cookie: string } | { ok: false; remaining: number };

/**
 * Checks a PIN at a till, counting the attempt first (lockout.ts) against the till and the client
 * address; a locked one is RATE_LIMITED without its PIN being checked. A right PIN clears both.
 */
export async function unlockTill(
  db: Kysely<Database>,
  till: TillRow,
  client: string,
  pin: string,
  now: Date,
  rule: LockoutRule = PIN_LOCKOUT,
): Promise<Unlock> {
  const keys = [
    { scope: 'till' as const, key: till.id },
    { scope: 'client' as const, key: client },
  ];
  const counted = await db.transaction().execute(async (tx) => {
    const rows = await repo.lockCounters(tx, keys, now);
    let left = rule.limit;
    for (const row of rows) {
      const a = admit(row, now, rule);
      if (!a.allowed) return a;
      left = Math.min(left, a.remaining);
    }
    for (const row of rows) {
      const a = admit(row, now, rule);
      if (a.allowed) await repo.writeCounter(tx, { ...row, ...a.row });
    }
    return { allowed: true as const, left };
  });
  if (!counted.allowed) {
    // Spend the hash anyway: a locked till answers in the same time as an open one.
    await burnPasswordCheck(pin);
    throw rateLimitedError(counted.until.getTime() - now.getTime());
  }
  if (await verifyPassword(pin, till.pin_hash)) {
    await repo.clearCounters(db, keys);
    return { ok: true, cookie: signTillSession(till.session_key, till.id, now) };
  }
  return { ok: false, remaining: counted.left };
}

/** A sale of this till: an invoice charged at another till, or none, is NOT_FOUND. */
export async function findTillSale(db: Kysely<Database>, tillId: string, invoiceId: string) {
  const sale = invoiceId.length <= 64 ? await repo.findTillInvoice(db, tillId, invoiceId) : undefined;
  if (!sale) throw ApiError.notFound('No sale with this id at this till');
  return sale;
}
