import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { endSession, selectProject } from '../users/sessions.js';
import { clearSessionCookie } from './cookies.js';
import { ROOT } from './layout.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });

/** Signing out and choosing the project to look at. */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const secure = app.config.publicBaseUrl.startsWith('https://');

  app.post(
    '/sign-out',
    { schema: { hide, body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }) } },
    async (request, reply) => {
      // The row goes, so the cookie is worthless everywhere at once, even if a copy of it survives.
      await endSession(app.db, request.dashboard.session.tokenHash);
      clearSessionCookie(reply, secure);
      return reply.redirect(`${ROOT}/sign-in`, 303);
    },
  );

  app.post(
    '/project',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Csrf, project_id: Type.String({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const { session, projects } = request.dashboard;
      const project = projects.find((p) => p.id === request.body.project_id);
      if (!project) throw ApiError.notFound('No project with this id');
      await selectProject(app.db, session.tokenHash, project.id);
      return reply.redirect(ROOT, 303);
    },
  );
};
