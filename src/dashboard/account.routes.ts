import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { takeSecret } from '../users/form-results.js';
import { recoveryCodesLeft, renewRecoveryCodes } from '../users/recovery-codes.js';
import { changePassword } from '../users/service.js';
import { beginTotp, confirmTotp, disableTotp, pendingTotp } from '../users/totp.js';
import type { DashboardContext } from './context.js';
import { validationMessages } from './errors.js';
import { ROOT } from './layout.js';
import { keepForResultPage } from './once.js';
import { guardSignIn, recordSignInFailure } from './signin.js';
import { accountPage, enrolPage, recoveryCodesPage } from './views/account.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });
const Text = Type.String({ maxLength: 1000 });
const NOTICES: Record<string, string> = {
  password: 'Password changed. Your other sessions have ended.',
  totp_off: 'Two-factor is off.',
};

/** The signed-in user's own password and two-factor: every role has this page. */
export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const codesLeft = async (ctx: DashboardContext) =>
    ctx.session.totpEnabled ? recoveryCodesLeft(app.db, ctx.session.userId) : 0;
  const showCodes = async (request: FastifyRequest, reply: FastifyReply, codes: string[]) => {
    const form = await keepForResultPage(request, codes.join('\n'));
    return reply.redirect(`${ROOT}/account/recovery-codes?form=${form}`, 303);
  };
  const html = 'text/html; charset=utf-8';
  /**
   * A change the form asked for and the service refused (VALIDATION_ERROR): the account page again,
   * 422, with the reasons; `counted` first records the failure where a guess is limited. Anything
   * else is not the user's to fix and goes to the error handler.
   */
  const refused = async (
    reply: FastifyReply,
    ctx: DashboardContext,
    err: unknown,
    counted?: () => Promise<unknown>,
  ) => {
    if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
    await counted?.();
    return reply
      .code(422)
      .type(html)
      .send(accountPage(ctx, { errors: validationMessages(err), codesLeft: await codesLeft(ctx) }));
  };
  const userOf = (ctx: { session: { userId: string; email: string; accountId: string } }) => ({
    id: ctx.session.userId,
    email: ctx.session.email,
    accountId: ctx.session.accountId,
  });

  app.get(
    '/account',
    { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) =>
      reply.type(html).send(
        accountPage(request.dashboard, {
          notice: NOTICES[request.query.done ?? ''],
          codesLeft: await codesLeft(request.dashboard),
        }),
      ),
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
        return refused(reply, ctx, err);
      }
      return reply.redirect(`${ROOT}/account?done=password`, 303);
    },
  );

  app.post(
    '/account/totp/begin',
    { schema: { hide, body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }) } },
    async (request, reply) => {
      const ctx = request.dashboard;
      try {
        await beginTotp(app.db, app.secretKey(), userOf(ctx));
      } catch (err) {
        // No key to seal the secret with (PostgreSQL without PAYDESK_ENCRYPTION_KEY): say so here.
        return refused(reply, ctx, err);
      }
      return reply.redirect(`${ROOT}/account/totp`, 303);
    },
  );

  // The enrolment in progress (a reload shows the same code to scan; "Begin" again starts over).
  app.get('/account/totp', { schema: { hide } }, async (request, reply) => {
    const pending = await pendingTotp(app.db, app.secretKey(), userOf(request.dashboard));
    if (!pending) return reply.redirect(`${ROOT}/account`, 303);
    return reply.type(html).send(enrolPage(request.dashboard, pending));
  });

  app.post(
    '/account/totp/confirm',
    { schema: { hide, body: Type.Object({ _csrf: Csrf, code: Text }, { additionalProperties: false }) } },
    async (request, reply) => {
      const ctx = request.dashboard;
      let codes: string[];
      try {
        codes = await confirmTotp(app.db, app.secretKey(), userOf(ctx), request.body.code, app.clock());
      } catch (err) {
        const pending = await pendingTotp(app.db, app.secretKey(), userOf(ctx));
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR' || !pending) throw err;
        return reply
          .code(422)
          .type(html)
          .send(enrolPage(ctx, pending, [err.message]));
      }
      return showCodes(request, reply, codes);
    },
  );

  // The recovery codes just made, on this page's first load only (as a new API key is shown).
  app.get(
    '/account/recovery-codes',
    { schema: { hide, querystring: Type.Object({ form: Type.Optional(Type.String({ maxLength: 100 })) }) } },
    async (request, reply) => {
      const ctx = request.dashboard;
      const codes = await takeSecret(app.db, ctx.session, request.query.form ?? '');
      return reply.type(html).send(recoveryCodesPage(ctx, codes?.split('\n')));
    },
  );

  app.post(
    '/account/recovery-codes',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Csrf, username: Type.Optional(Text), current_password: Text },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      let codes: string[];
      try {
        codes = await renewRecoveryCodes(app.db, userOf(ctx), request.body.current_password, app.clock());
      } catch (err) {
        return refused(reply, ctx, err);
      }
      return showCodes(request, reply, codes);
    },
  );

  app.post(
    '/account/totp/disable',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Csrf, username: Type.Optional(Text), confirm: Text },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      // A password or a code is guessed here as at sign-in: the same limits, the same counters.
      await guardSignIn(app.limiter, request.ip, ctx.session.email, now.getTime());
      try {
        await disableTotp(app.db, app.secretKey(), userOf(ctx), request.body.confirm, now);
      } catch (err) {
        return refused(reply, ctx, err, () =>
          recordSignInFailure(app.limiter, request.ip, ctx.session.email, now.getTime()),
        );
      }
      return reply.redirect(`${ROOT}/account?done=totp_off`, 303);
    },
  );
};
