import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { auditLog } from '../audit/audit.js';
import { ApiError } from '../http/errors.js';
import { PathId, StringEnum } from '../http/schemas.js';
import { takeSecret } from '../users/form-results.js';
import { findAccountUser, inviteUser, listUsers, removeUser } from '../users/service.js';
import { ROLES } from '../users/user.table.js';
import { actor } from './actor.js';
import { validationMessages } from './errors.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { keepForResultPage } from './once.js';
import { invitedPage, invitePage, teamPage } from './views/team.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });
const UserParams = Type.Object({ id: PathId('usr', 'No user with this id', 'The user id') });

/** Team (owners only): users, invites, removal and the audit log. */
export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';
  app.addHook('preValidation', async (request) => requireOwner(request.dashboard));

  app.get(
    '/team',
    {
      schema: { hide, querystring: Type.Object({ removed: Type.Optional(Type.String({ maxLength: 10 })) }) },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const [users, log] = await Promise.all([
        listUsers(app.db, ctx.session.accountId),
        auditLog(app.db, ctx.session.accountId),
      ]);
      return reply
        .type(html)
        .send(
          teamPage(
            ctx,
            users,
            log,
            request.query.removed ? 'User removed; their sessions have ended.' : undefined,
          ),
        );
    },
  );

  app.get('/team/invite', { schema: { hide } }, async (request, reply) =>
    reply.type(html).send(invitePage(request.dashboard)),
  );

  app.post(
    '/team/invite',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Csrf, email: Type.String({ maxLength: 1000 }), role: StringEnum(ROLES) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const { email, role } = request.body;
      try {
        // An address already on the team gets a new link (issue 33): for someone who lost theirs.
        const { user, inviteUrl, reinvited } = await inviteUser(
          app.db,
          ctx.session.accountId,
          { email, role },
          actor(ctx),
          { now: app.clock(), publicBaseUrl: app.config.publicBaseUrl, reinvite: true },
        );
        const form = await keepForResultPage(request, inviteUrl);
        const again = reinvited ? '&again=1' : '';
        return reply.redirect(`${ROOT}/team/${user.id}/invited?form=${form}${again}`, 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
        return reply
          .code(422)
          .type(html)
          .send(invitePage(ctx, { email: email.slice(0, 254), role, errors: validationMessages(err) }));
      }
    },
  );

  // The result page of "Invite": the invite link on its first load only.
  app.get(
    '/team/:id/invited',
    {
      schema: {
        hide,
        params: UserParams,
        querystring: Type.Object({
          form: Type.Optional(Type.String({ maxLength: 100 })),
          again: Type.Optional(Type.String({ maxLength: 10 })),
        }),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const user = await findAccountUser(app.db, ctx.session.accountId, request.params.id);
      const link = await takeSecret(app.db, ctx.session, request.query.form ?? '');
      return reply.type(html).send(invitedPage(ctx, user, link, Boolean(request.query.again)));
    },
  );

  app.post(
    '/team/:id/remove',
    {
      schema: {
        hide,
        params: UserParams,
        body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      if (request.params.id === ctx.session.userId) {
        throw ApiError.validation([
          { in: 'path', field: 'id', rule: 'self', message: 'You cannot remove yourself' },
        ]);
      }
      await removeUser(app.db, ctx.session.accountId, request.params.id, actor(ctx), app.clock());
      return reply.redirect(`${ROOT}/team?removed=1`, 303);
    },
  );
};
