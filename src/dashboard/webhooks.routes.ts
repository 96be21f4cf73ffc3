import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Change } from '../audit/audit.js';
import type { EventType } from '../events/catalogue.js';
import { ApiError } from '../http/errors.js';
import { PathId, StringEnum } from '../http/schemas.js';
import { takeSecret } from '../users/form-results.js';
import * as webhooks from '../webhooks/service.js';
import { NewEndpointSchema } from '../webhooks/webhook.js';
import { change } from './actor.js';
import { validationMessages } from './errors.js';
import { fields } from './form.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { keepForResultPage } from './once.js';
import { newEndpointPage, secretPage, webhooksPage } from './views/webhooks.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });
const EndpointParams = Type.Object({
  id: PathId('we', 'No webhook endpoint with this id', 'The endpoint id'),
});
const ActionBody = Type.Object({ _csrf: Csrf }, { additionalProperties: false });
const NOTICES: Record<string, string> = {
  test: 'Test event queued; it appears in the deliveries below once sent.',
  disabled: 'Endpoint disabled: it gets no new events until enabled again.',
  enabled: 'Endpoint enabled.',
};
const DELIVERIES_SHOWN = 20;

/** Webhook endpoints: everyone reads them and their deliveries; owners change them. */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';
  const owner = { preValidation: async (request: FastifyRequest) => requireOwner(request.dashboard) };

  app.get(
    '/webhooks',
    { schema: { hide, querystring: Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) }) } },
    async (request, reply) => {
      const ctx = request.dashboard;
      const endpoints = await webhooks.listEndpoints(app.db, ctx.project.id);
      const views = await Promise.all(
        endpoints.map(async (endpoint) => ({
          endpoint,
          attempts: (await webhooks.listAttempts(app.db, endpoint.id, { limit: DELIVERIES_SHOWN, page: 1 }))
            .rows,
        })),
      );
      return reply.type(html).send(webhooksPage(ctx, views, NOTICES[request.query.done ?? '']));
    },
  );

  app.get('/webhooks/new', { schema: { hide }, ...owner }, async (request, reply) =>
    reply.type(html).send(newEndpointPage(request.dashboard)),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        hide,
        body: Type.Object(
          {
            _csrf: Csrf,
            url: Type.String({ maxLength: 2048 }),
            events: Type.Optional(
              Type.Union([
                Type.String({ maxLength: 50 }),
                Type.Array(Type.String({ maxLength: 50 }), { maxItems: 10 }),
              ]),
            ),
          },
          { additionalProperties: false },
        ),
      },
      ...owner,
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      const url = request.body.url.trim();
      const events = fields(request.body, 'events');
      try {
        // The admin API's rules for a new endpoint (webhooks/webhook.ts), then the service's own.
        const errors = app.checkFields(NewEndpointSchema, { url, events });
        if (errors.length > 0) throw ApiError.validation(errors);
        const { endpoint, secret } = await webhooks.createEndpoint(
          app.db,
          ctx.project.id,
          { url, events: events as EventType[] },
          app.config.webhookAllowPrivate,
          change(ctx, now),
        );
        const form = await keepForResultPage(request, secret);
        return reply.redirect(`${ROOT}/webhooks/${endpoint.id}/secret?form=${form}&after=added`, 303);
      } catch (err) {
        // The SSRF refusals (webhooks/address.ts) and other field errors come back on the form.
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
        return reply
          .code(422)
          .type(html)
          .send(newEndpointPage(ctx, { url, events, errors: validationMessages(err) }));
      }
    },
  );

  const endpointAction = (
    path: string,
    run: (endpoint: { id: string; project_id: string }, change: Change) => Promise<unknown>,
    done: string,
  ) =>
    app.post(
      path,
      { schema: { hide, params: EndpointParams, body: ActionBody }, ...owner },
      async (request, reply) => {
        const ctx = request.dashboard;
        const now = app.clock();
        const endpoint = await webhooks.findProjectEndpoint(app.db, ctx.project.id, request.params.id);
        await run(endpoint, change(ctx, now));
        return reply.redirect(`${ROOT}/webhooks?done=${done}`, 303);
      },
    );

  endpointAction(
    '/webhooks/:id/disable',
    (e, by) => webhooks.setEndpointStatus(app.db, e.id, 'disabled', by),
    'disabled',
  );
  endpointAction(
    '/webhooks/:id/enable',
    (e, by) => webhooks.setEndpointStatus(app.db, e.id, 'active', by),
    'enabled',
  );
  endpointAction(
    '/webhooks/:id/test',
    (e, by) => webhooks.sendTestEvent(app.db, app.config.networks, e, by),
    'test',
  );

  app.post(
    '/webhooks/:id/roll',
    { schema: { hide, params: EndpointParams, body: ActionBody }, ...owner },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      const endpoint = await webhooks.findProjectEndpoint(app.db, ctx.project.id, request.params.id);
      const { secret } = await webhooks.rollEndpointSecret(app.db, endpoint.id, change(ctx, now));
      const form = await keepForResultPage(request, secret);
      return reply.redirect(`${ROOT}/webhooks/${endpoint.id}/secret?form=${form}&after=rolled`, 303);
    },
  );

  // The result page of "Add endpoint" and "Roll secret": the signing secret on its first load only.
  app.get(
    '/webhooks/:id/secret',
    {
      schema: {
        hide,
        params: EndpointParams,
        querystring: Type.Object({
          form: Type.Optional(Type.String({ maxLength: 100 })),
          after: Type.Optional(StringEnum(['added', 'rolled'])),
        }),
      },
      ...owner,
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const endpoint = await webhooks.findProjectEndpoint(app.db, ctx.project.id, request.params.id);
      const secret = await takeSecret(app.db, ctx.session, request.query.form ?? '');
      const page =
        request.query.after === 'rolled'
          ? secretPage(
              ctx,
              'Secret rolled',
              endpoint.url,
              secret,
              'Requests are signed with this secret from now on, and with the old one as well for the next 24 hours, so your server can switch over without missing one.',
            )
          : secretPage(
              ctx,
              'Endpoint added',
              endpoint.url,
              secret,
              'Give this secret to your server to verify the signatures of our requests.',
            );
      return reply.type(html).send(page);
    },
  );
};
