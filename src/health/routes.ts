import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { networkWatches } from '../chains/status.js';
import { HEALTH_CHECK_MS, within } from '../db/bounds.js';
import { ok, sendError } from '../http/envelope.js';
import { errorResponses, StringEnum, Success } from '../http/schemas.js';
import { NetworksSchema } from './networks.js';
import { RateSourcesSchema, rateSourcesOf } from './rate-sources.js';

/**
 * GET /v1/health: no key, no rate limit; 503 when the database does not answer within a second
 * (contract §20), so a load balancer stops sending traffic to an instance that cannot serve. The check
 * goes through the same pool as every request: an instance whose connections are all stuck is unhealthy.
 */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Is the service up?',
        tags: ['Health'],
        security: [],
        response: {
          200: Success(
            Type.Object({
              status: Type.Literal('ok'),
              version: Type.String(),
              database: Type.Literal('ok'),
              redis: Type.Optional(
                StringEnum(['ok', 'unavailable'], {
                  description:
                    'Only with REDIS_URL set. "unavailable": rate limits are counted per instance until Redis is back; the API serves either way',
                }),
              ),
              rate_sources: RateSourcesSchema,
              networks: NetworksSchema,
            }),
            'The service and its database answer',
          ),
          ...errorResponses(405, 503),
        },
      },
      // A load balancer or monitor asks every few seconds: logged at debug (http/request-log.ts).
      config: { polled: true },
    },
    async (request, reply) => {
      try {
        await within(sql`select 1`.execute(app.db), HEALTH_CHECK_MS);
      } catch (err) {
        request.log.error({ err }, 'health check: database unreachable');
        reply.header('Retry-After', '5');
        return sendError(request, reply, 503, 'INTERNAL_SERVER_ERROR', 'The database is unreachable');
      }
      const redis = app.limiter.status;
      const networks = await networkWatches(app.db, app.config.networks, app.watching);
      return ok(request, 'Paydesk is up', {
        status: 'ok' as const,
        version: app.config.version,
        database: 'ok' as const,
        ...(redis ? { redis } : {}),
        rate_sources: rateSourcesOf(app),
        networks: networks.map((n) => ({ ...n, since: n.since?.toISOString() ?? null })),
      });
    },
  );
};
