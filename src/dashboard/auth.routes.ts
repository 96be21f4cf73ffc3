import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { acceptInvite, checkPassword, openInvite, SIGN_IN_FAILED } from '../users/service.js';
import { completeTotp, loadSession, recordSignIn, startSession } from '../users/sessions.js';
import { verifySecondFactor } from '../users/totp.js';
import { readCookie, SESSION_COOKIE, setSessionCookie } from './cookies.js';
import { checkOrigin } from './guard.js';
import { ROOT } from './layout.js';
import { guardSignIn, recordSignInFailure } from './signin.js';
import { invitePage, signInPage, totpPage } from './views/auth.js';

const hide = true;
const Text = Type.String({ maxLength: 1000 });
const TokenParams = Type.Object({ token: Type.String({ maxLength: 200 }) });

/** Signing in and accepting an invite: the dashboard's only pages without a session. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const secure = app.config.publicBaseUrl.startsWith('https://');
  const html = 'text/html; charset=utf-8';

  app.get(
    '/sign-in',
    { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) =>
      reply
        .type(html)
        .send(
          signInPage(
            request.query.done === 'password_set'
              ? { notice: 'Your password is set. Sign in with it now.' }
              : undefined,
          ),
        ),
  );

  app.post(
    '/sign-in',
    { schema: { hide, body: Type.Object({ email: Text, password: Text }, { additionalProperties: false }) } },
    async (request, reply) => {
      // No session yet, so no CSRF token: the Origin check alone keeps other sites from signing a
      // visitor into an account of theirs (login CSRF).
      checkOrigin(request, app.config.publicBaseUrl);
      const { email, password } = request.body;
      const now = app.clock();
      await guardSignIn(app.limiter, request.ip, email, now.getTime());
      const user = await checkPassword(app.db, email, password);
      if (!user) {
        await recordSignInFailure(app.limiter, request.ip, email, now.getTime());
        return reply
          .code(401)
          .type(html)
          .send(signInPage({ email, errors: [SIGN_IN_FAILED] }));
      }
      const token = await startSession(app.db, user.id, user.totp_secret !== null, now);
      setSessionCookie(reply, token, secure);
      if (user.totp_secret) return reply.redirect(`${ROOT}/sign-in/totp`, 303);
      await recordSignIn(app.db, { id: user.id, email: user.email, accountId: user.account_id }, null, now);
      return reply.redirect(ROOT, 303);
    },
  );

  app.get('/sign-in/totp', { schema: { hide } }, async (request, reply) => {
    const session = await loadSession(app.db, readCookie(request, SESSION_COOKIE), app.clock());
    if (!session?.needsTotp) return reply.redirect(`${ROOT}/sign-in`, 303);
    return reply.type(html).send(totpPage());
  });

  app.post(
    '/sign-in/totp',
    { schema: { hide, body: Type.Object({ code: Text }, { additionalProperties: false }) } },
    async (request, reply) => {
      checkOrigin(request, app.config.publicBaseUrl);
      const now = app.clock();
      const session = await loadSession(app.db, readCookie(request, SESSION_COOKIE), now);
      if (!session?.needsTotp) return reply.redirect(`${ROOT}/sign-in`, 303);
      // The code is the second half of a sign-in: its failures count against the same limits.
      await guardSignIn(app.limiter, request.ip, session.email, now.getTime());
      const user = { id: session.userId, email: session.email, accountId: session.accountId };
      const how = await verifySecondFactor(app.db, app.secretKey(), user, request.body.code, now);
      if (!how) {
        await recordSignInFailure(app.limiter, request.ip, session.email, now.getTime());
        return reply
          .code(401)
          .type(html)
          .send(
            totpPage([
              'That code is not right, or was used already; check the time on your phone and try the newest one.',
            ]),
          );
      }
      await completeTotp(app.db, session.tokenHash);
      await recordSignIn(app.db, user, how === 'app' ? 'with two-factor code' : 'with a recovery code', now);
      return reply.redirect(ROOT, 303);
    },
  );

  app.get('/invite/:token', { schema: { hide, params: TokenParams } }, async (request, reply) => {
    const invite = await openInvite(app.db, request.params.token, app.clock());
    return reply.type(html).send(invitePage({ token: request.params.token, email: invite.email }));
  });

  app.post(
    '/invite/:token',
    {
      schema: {
        hide,
        params: TokenParams,
        body: Type.Object({ password: Text, username: Type.Optional(Text) }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      checkOrigin(request, app.config.publicBaseUrl);
      const { token } = request.params;
      const now = app.clock();
      const invite = await openInvite(app.db, token, now);
      try {
        await acceptInvite(app.db, token, request.body.password, now);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'VALIDATION_ERROR') {
          return reply
            .code(422)
            .type(html)
            .send(invitePage({ token, email: invite.email, errors: [err.message] }));
        }
        throw err;
      }
      return reply.redirect(`${ROOT}/sign-in?done=password_set`, 303);
    },
  );
};
