import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { OPERATOR } from '../audit/audit.js';
import { ok } from '../http/envelope.js';
import { errorResponses, PathId, StringEnum, Success } from '../http/schemas.js';
import { inviteUser } from './service.js';
import { DashboardUserSchema, toUser } from './user.js';
import { ROLES } from './user.table.js';

const AccountParams = Type.Object({
  id: PathId('acct', 'No account with this id', 'The account id, acct_…'),
});

/** The operator creates an account's first dashboard user (contract §13); inside the admin scope. */
export const userAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/accounts/:id/users',
    {
      schema: {
        operationId: 'adminCreateDashboardUser',
        summary: 'Invite a dashboard user to an account (the invite link is shown only in this response)',
        description:
          'The user sets a password through `invite_url`, which works once and expires after 72 hours.',
        tags: ['Admin'],
        params: AccountParams,
        body: Type.Object(
          {
            // Length and shape are checked by the service (users/email.ts), with its own messages.
            email: Type.String({ maxLength: 1000, examples: ['owner@shop.example'] }),
            role: Type.Optional(StringEnum(ROLES, { default: 'owner' })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Success(
            Type.Object({ user: DashboardUserSchema, invite_url: Type.String({ format: 'uri' }) }),
            'The user and their single-use invite link',
          ),
          ...errorResponses(401, 404, 405, 422, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { user, inviteUrl } = await inviteUser(app.db, request.params.id, request.body, OPERATOR, {
        now: app.clock(),
        publicBaseUrl: app.config.publicBaseUrl,
      });
      reply.code(201);
      return ok(request, 'User invited; send them the invite link', {
        user: toUser(user),
        invite_url: inviteUrl,
      });
    },
  );
};
