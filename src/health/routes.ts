import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { ok, sendError } from '../http/envelope.js';
import { errorResponses, StringEnum, Success } from '../http/schemas.js';

/** GET /v1/health: no key, no rate limit; 503 when the database does not answer. */
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
            }),
            'The service and its database answer',
          ),
          ...errorResponses(405, 503),
        },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
      } catch (err) {
        request.log.error({ err }, 'health check: database unreachable');
        reply.header('Retry-After', '5');
        return sendError(request, reply, 503, 'INTERNAL_SERVER_ERROR', 'The database is unreachable');
      }
      const redis = app.limiter.status;
      return ok(request, 'Paydesk is up', {
        status: 'ok' as const,
        version: app.config.version,
        database: 'ok' as const,
        ...(redis ? { redis } : {}),
      });
    },
  );
};
