import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { noRoute } from '../http/routing.js';
import type { Authenticator } from '../merchants/authenticate.js';
import { authError } from '../merchants/authenticate.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The operator's token guards /v1/admin. Without a configured token the admin API does not exist
 * (404). Digests of equal length are compared, so the comparison's time says nothing about the token.
 */
export function adminGuard(token: string | undefined, authenticator: Authenticator) {
  const expected = token ? digest(token) : undefined;
  return async (request: FastifyRequest) => {
    if (!expected) throw noRoute(request);
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') throw authError('API_KEY_REQUIRED');
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match?.[1]) throw authError('API_KEY_INVALID_FORMAT');
    await authenticator.guardFailures(request.ip);
    if (!timingSafeEqual(digest(match[1]), expected)) {
      await authenticator.recordFailure(request.ip);
      throw authError('API_KEY_INVALID');
    }
  };
}
