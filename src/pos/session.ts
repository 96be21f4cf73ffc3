import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * The till's session cookie, set by a right PIN: `{till id}.{issued, unix seconds}.{HMAC-SHA256}`,
 * signed with the till's own `session_key`, so it opens that till only, and a forged, altered or
 * other till's cookie never verifies. Path=/pos/{id}, HttpOnly, SameSite=Strict (a cross-site form
 * never carries it): no dashboard session is involved. It lasts a shift (TILL_SESSION_MS); a
 * disabled till refuses every cookie.
 */
export const TILL_COOKIE = 'paydesk_till';
export const TILL_SESSION_MS = 12 * 60 * 60_000;

function mac(key: Buffer, tillId: string, issued: string): string {
  return createHmac('sha256', key).update(`${tillId}.${issued}`).digest('base64url');
}

export function signTillSession(key: Buffer, tillId: string, now: Date): string {
  const issued = Math.floor(now.getTime() / 1000).toString();
  return `${tillId}.${issued}.${mac(key, tillId, issued)}`;
}

/** True only for this till's own unexpired cookie, compared in constant time. */
export function verifyTillSession(
  key: Buffer,
  tillId: string,
  cookie: string | undefined,
  now: Date,
): boolean {
  const [id, issued, tag, ...rest] = (cookie ?? '').split('.');
  if (rest.length > 0 || id !== tillId || !issued || !tag || !/^[0-9]{1,12}$/.test(issued)) return false;
  const age = now.getTime() - Number(issued) * 1000;
  if (age < -60_000 || age > TILL_SESSION_MS) return false;
  const expected = Buffer.from(mac(key, tillId, issued));
  const actual = Buffer.from(tag);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function tillCookie(tillId: string, value: string, secure: boolean, clear = false): string {
  const maxAge = clear ? 0 : TILL_SESSION_MS / 1000;
  return `${TILL_COOKIE}=${value}; Path=/pos/${tillId}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The till cookie of a request (the first, should a client send two). */
export function readTillCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === TILL_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}
