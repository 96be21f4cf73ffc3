import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import * as repo from './form-results.repository.js';
import type { Session } from './sessions.js';

/**
 * Dashboard forms that change something are POST, redirect, GET (contract §17), and each is sent once:
 * its one-time token (`_once`, a hidden field of every form) is claimed by the first POST, and any
 * later POST of the same form is sent where the first one's redirect led. A secret the action made is
 * shown once, on that page: it waits here sealed (AES-256-GCM) with a key derived from the session's
 * cookie, which the database never holds, and is cleared by the first read.
 */

export type Claim = { first: true } | { first: false; location: string | undefined };

const ONCE_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

export function isOnceToken(value: string): boolean {
  return ONCE_SHAPE.test(value);
}

export function newOnceToken(): string {
  return randomBytes(18).toString('base64url');
}

export async function claimForm(
  db: Kysely<Database>,
  session: Session,
  once: string,
  now: Date,
): Promise<Claim> {
  if (await repo.claim(db, session.tokenHash, once, now)) return { first: true };
  const row = await repo.find(db, session.tokenHash, once);
  return { first: false, location: row?.location ?? undefined };
}

/** The form's action is done and its result is at `location`. */
export function formDone(db: Kysely<Database>, session: Session, once: string, location: string) {
  return repo.setLocation(db, session.tokenHash, once, location);
}

/** The form's action did not happen (its page came back with errors): the same token may be sent again. */
export function formNotDone(db: Kysely<Database>, session: Session, once: string) {
  return repo.release(db, session.tokenHash, once);
}

/** Keeps the secret a form's action made, for its result page to show once. */
export function keepSecret(db: Kysely<Database>, session: Session, once: string, secret: string) {
  return repo.setSecret(db, session.tokenHash, once, seal(session.token, once, secret));
}

/** The secret, the first time its result page asks; undefined ever after. */
export async function takeSecret(
  db: Kysely<Database>,
  session: Session,
  once: string,
): Promise<string | undefined> {
  if (!isOnceToken(once)) return undefined;
  const sealed = await repo.takeSecret(db, session.tokenHash, once);
  return sealed ? unseal(session.token, once, sealed) : undefined;
}

function keyFor(sessionToken: string): Buffer {
  return createHmac('sha256', sessionToken).update('paydesk dashboard form secret').digest();
}

function seal(sessionToken: string, once: string, secret: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(sessionToken), iv);
  cipher.setAAD(Buffer.from(once));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function unseal(sessionToken: string, once: string, sealed: Buffer): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(sessionToken), sealed.subarray(0, 12));
    decipher.setAAD(Buffer.from(once));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
