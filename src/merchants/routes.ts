import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope.js';
import { enforce } from '../http/rate-limit.js';
import { AUTHENTICATED_ERRORS, errorResponses, RATE_LIMIT_HEADERS, Success } from '../http/schemas.js';
import { ApiKeySchema, ProjectSchema, toApiKey, toProject } from './merchant.js';
import { describeKey } from './service.js';

/**
 * Puts the merchant API's checks in front of every route of the scope: authentication, then the
 * per-project rate limit. Both run on onRequest, before the body is parsed or validated (contract
 * §2's order).
 */
export function guardMerchantApi(app: FastifyInstance): void {
  const limit = { max: app.config.rateLimit.max, windowMs: app.config.rateLimit.windowSeconds * 1000 };
  app.addHook('onRequest', async (request, reply) => {
    request.principal = await app.authenticator.authenticate(request.headers.authorization, request.ip);
    await enforce(app.limiter, reply, `project:${request.principal.projectId}`, limit, app.clock().getTime());
  });
}

/** GET /v1/merchant/me. */
export const merchantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/me',
    {
      schema: {
        operationId: 'getMe',
        summary: 'The project and API key in use',
        description: 'Use it to check that a key works and belongs to an active project.',
        tags: ['Merchant'],
        response: {
          200: Success(
            Type.Object({
              project: Type.Omit(ProjectSchema, ['account_id'], { title: 'KeyProject' }),
              api_key: Type.Ref(ApiKeySchema),
            }),
            'The project and key',
            RATE_LIMIT_HEADERS,
          ),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      // Not a hot path: always re-read the key, so /me reports a revocation even from the cache.
      await request.principal.confirm();
      const { project, apiKey } = await describeKey(
        app.db,
        request.principal.projectId,
        request.principal.keyId,
      );
      const { account_id: _, ...publicProject } = toProject(project, app.config.networks);
      return ok(request, 'API key is valid', { project: publicProject, api_key: toApiKey(apiKey) });
    },
  );
};
