import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { PathId } from '../http/schemas.js';
import * as pos from '../pos/service.js';
import { change } from './actor.js';
import { validationMessages } from './errors.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { tillsPage } from './views/pos.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });
const TillParams = Type.Object({ id: PathId('till', 'No till with this id', 'The till id') });
const NOTICES: Record<string, string> = {
  created: 'Till created. Open its link on the counter’s phone or tablet and enter the PIN.',
  disabled: 'Till disabled: its link and every open session on it stopped working.',
};

/** "Point of sale": the project's tills (owners only: a till's PIN opens sales without a sign-in). */
export const posRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';
  const base = app.config.publicBaseUrl;
  app.addHook('preValidation', async (request) => requireOwner(request.dashboard));

  app.get(
    '/pos',
    { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) => {
      const ctx = request.dashboard;
      const tills = await pos.listTills(app.db, ctx.project.id);
      return reply
        .type(html)
        .send(tillsPage(ctx, tills, base, { notice: NOTICES[request.query.done ?? ''] }));
    },
  );

  app.post(
    '/pos',
    {
      schema: {
        hide,
        body: Type.Object(
          {
            _csrf: Csrf,
            name: Type.String({ maxLength: 1000 }),
            pin: Type.String({ maxLength: 100 }),
            items: Type.String({ maxLength: 8000 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const { name, pin, items } = request.body;
      try {
        await pos.createTill(app.db, ctx.project.id, { name, pin, items }, change(ctx, app.clock()));
        return reply.redirect(`${ROOT}/pos?done=created`, 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
        const tills = await pos.listTills(app.db, ctx.project.id);
        // The PIN is never sent back: the form asks for it again.
        const form = { name, items, errors: validationMessages(err) };
        return reply
          .code(422)
          .type(html)
          .send(tillsPage(ctx, tills, base, { form }));
      }
    },
  );

  app.post(
    '/pos/:id/disable',
    {
      schema: {
        hide,
        params: TillParams,
        body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      await pos.disableTill(app.db, ctx.project.id, request.params.id, change(ctx, app.clock()));
      return reply.redirect(`${ROOT}/pos?done=disabled`, 303);
    },
  );
};
