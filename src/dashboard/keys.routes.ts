import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { PathId } from '../http/schemas.js';
import { NewKeySchema } from '../merchants/fields.js';
import * as merchants from '../merchants/service.js';
import { takeSecret } from '../users/form-results.js';
import { change } from './actor.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { keepForResultPage } from './once.js';
import { createdKeyPage, keysPage, newKeyPage, revokePage } from './views/keys.js';

const hide = true;
const KeyParams = Type.Object({ id: PathId('key', 'No API key with this id', 'The API key id') });
const Csrf = Type.String({ maxLength: 100 });
const FormQuery = Type.Object({ form: Type.Optional(Type.String({ maxLength: 100 })) });

/** API keys (owners only), through the same service functions as the admin API. */
export const keyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';
  // Before the body is validated: a viewer learns nothing about what an owner's form would take.
  app.addHook('preValidation', async (request) => requireOwner(request.dashboard));

  app.get(
    '/api-keys',
    {
      schema: { hide, querystring: Type.Object({ revoked: Type.Optional(Type.String({ maxLength: 10 })) }) },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const keys = await merchants.listApiKeys(app.db, ctx.project.id);
      const notice = request.query.revoked ? 'Key revoked. Requests with it now fail.' : undefined;
      return reply.type(html).send(keysPage(ctx, keys, notice));
    },
  );

  app.get('/api-keys/new', { schema: { hide } }, async (request, reply) =>
    reply.type(html).send(newKeyPage(request.dashboard)),
  );

  app.post(
    '/api-keys',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Csrf, name: Type.String({ maxLength: 1000 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      // The admin API's rules for a new key (merchants/fields.ts), on the name as typed; stored trimmed.
      const errors = app.checkFields(NewKeySchema, { name: request.body.name });
      if (errors.length > 0) throw ApiError.validation(errors);
      const name = request.body.name.trim();
      const { apiKey, secret } = await merchants.issueApiKey(
        app.db,
        ctx.project.id,
        { name },
        change(ctx, now),
      );
      const form = await keepForResultPage(request, secret);
      return reply.redirect(`${ROOT}/api-keys/${apiKey.id}/created?form=${form}`, 303);
    },
  );

  // The result page of "Create key": the secret on its first load only.
  app.get(
    '/api-keys/:id/created',
    { schema: { hide, params: KeyParams, querystring: FormQuery } },
    async (request, reply) => {
      const ctx = request.dashboard;
      const key = await merchants.findProjectKey(app.db, ctx.project.id, request.params.id);
      const secret = await takeSecret(app.db, ctx.session, request.query.form ?? '');
      return reply.type(html).send(createdKeyPage(ctx, key, secret));
    },
  );

  app.get('/api-keys/:id/revoke', { schema: { hide, params: KeyParams } }, async (request, reply) => {
    const ctx = request.dashboard;
    const key = await merchants.findProjectKey(app.db, ctx.project.id, request.params.id);
    return reply.type(html).send(revokePage(ctx, key));
  });

  app.post(
    '/api-keys/:id/revoke',
    {
      schema: {
        hide,
        params: KeyParams,
        body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      // Only a key of the selected project: another project's or account's key id is NOT_FOUND.
      const key = await merchants.findProjectKey(app.db, ctx.project.id, request.params.id);
      await merchants.revokeApiKey(app.db, key.id, change(ctx, now));
      return reply.redirect(`${ROOT}/api-keys?revoked=1`, 303);
    },
  );
};
