import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { changePassword } from '../users/service.js';
import { beginTotp, confirmTotp, disableTotp, pendingTotp } from '../users/totp.js';
import { validationMessages } from './errors.js';
import { ROOT } from './layout.js';
import { accountPage, enrolPage } from './views/account.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });
const Text = Type.String({ maxLength: 1000 });
const NOTICES: Record<string, string> = {
  password: 'Password changed. Your other sessions have ended.',
  totp_on: 'Two-factor is on.',
  totp_off: 'Two-factor is off.',
};

/** The signed-in user's own password and two-factor: every role has this page. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';
  const userOf = (ctx: { session: { userId: string; email: string; accountId: string } }) => ({
    id: ctx.session.userId,
    email: ctx.session.email,
    accountId: ctx.session.accountId,
  });

  app.get(
    '/account',
    { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) =>
      reply.type(html).send(accountPage(request.dashboard, { notice: NOTICES[request.query.done ?? ''] })),
  );

  app.post(
    '/account/password',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Csrf, username: Type.Optional(Text), current_password: Text, new_password: Text },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const s = ctx.session;
      try {
        await changePassword(
          app.db,
          { id: s.userId, account_id: s.accountId, email: s.email },
          request.body.current_password,
          request.body.new_password,
          s.tokenHash,
          app.clock(),
        );
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
        return reply
          .code(422)
          .type(html)
          .send(accountPage(ctx, { errors: validationMessages(err) }));
      }
      return reply.redirect(`${ROOT}/account?done=password`, 303);
    },
  );

  app.post(
    '/account/totp/begin',
    { schema: { hide, body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }) } },
    async (request, reply) => {
      await beginTotp(app.db, userOf(request.dashboard));
      return reply.redirect(`${ROOT}/account/totp`, 303);
    },
  );

  // The enrolment in progress (a reload shows the same code to scan; "Begin" again starts over).
  app.get('/account/totp', { schema: { hide } }, async (request, reply) => {
    const pending = await pendingTotp(app.db, userOf(request.dashboard));
    if (!pending) return reply.redirect(`${ROOT}/account`, 303);
    return reply.type(html).send(enrolPage(request.dashboard, pending));
  });

  app.post(
    '/account/totp/confirm',
    { schema: { hide, body: Type.Object({ _csrf: Csrf, code: Text }, { additionalProperties: false }) } },
    async (request, reply) => {
      const ctx = request.dashboard;
      try {
        await confirmTotp(app.db, userOf(ctx), request.body.code, app.clock());
      } catch (err) {
        const pending = await pendingTotp(app.db, userOf(ctx));
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR' || !pending) throw err;
        return reply
          .code(422)
          .type(html)
          .send(enrolPage(ctx, pending, [err.message]));
      }
      return reply.redirect(`${ROOT}/account?done=totp_on`, 303);
    },
  );

  app.post(
    '/account/totp/disable',
    { schema: { hide, body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }) } },
    async (request, reply) => {
      await disableTotp(app.db, userOf(request.dashboard), app.clock());
      return reply.redirect(`${ROOT}/account?done=totp_off`, 303);
    },
  );
};
