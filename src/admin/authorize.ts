import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendApiError } from '../http/error-handler.js';
import { noRoute } from '../http/routing.js';
import type { Authenticator } from '../merchants/authenticate.js';
import { authError } from '../merchants/authenticate.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Puts the operator's token in front of every route of the scope (the admin API, wherever its routes
 * are declared). Without a token the admin API does not exist (contract §7): a wrong method on one
 * of its paths is 404 as well, not the root handler's 405 whose Allow header would reveal the route.
 */
export function guardAdminApi(app: FastifyInstance): void {
  if (!app.config.adminToken) {
    app.setNotFoundHandler((request, reply) => sendApiError(request, reply, noRoute(request)));
  }
  app.addHook('onRequest', adminGuard(app.config.adminToken, app.authenticator));
}

/**
 * The operator's token guards /v1/admin. Without a configured token the admin API does not exist
 * (404). Digests of equal length are compared, so the comparison's time says nothing about the token.
 */
function adminGuard(token: string | undefined, authenticator: Authenticator) {
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
