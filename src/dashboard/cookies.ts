import type { FastifyReply, FastifyRequest } from 'fastify';

/** Cookies by hand (the `cookie` package's current major needs Node 22): one cookie, one format. */
export const SESSION_COOKIE = 'paydesk_session';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs; the CSRF token and the
 * Origin check are the other two locks), Secure when the public address is https, and scoped to
 * /dashboard. No Max-Age: the server's session row decides how long it lives.
 */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.header(
    'Set-Cookie',
    `${SESSION_COOKIE}=${token}; Path=/dashboard; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`,
  );
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header(
    'Set-Cookie',
    `${SESSION_COOKIE}=; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`,
  );
}
