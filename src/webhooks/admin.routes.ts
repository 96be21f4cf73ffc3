import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { byOperator } from '../audit/audit.js';
import { ok, okWithMeta } from '../http/envelope.js';
import { PAGE_QUERY_FIELDS, PaginationMeta } from '../http/pagination.js';
import { errorResponses, PathId, Success, SuccessWithMeta } from '../http/schemas.js';
import * as service from './service.js';
import {
  AttemptSchema,
  EndpointSchema,
  NewEndpointSchema,
  RedeliverySchema,
  toAttempt,
  toEndpoint,
  toRedelivery,
} from './webhook.js';

const ProjectParams = Type.Object({ id: PathId('prj', 'No project with this id', 'The project id, prj_…') });
const EndpointParams = Type.Object({
  id: PathId('we', 'No webhook endpoint with this id', 'The endpoint id, we_…'),
});
const EventParams = Type.Object({ event: PathId('evt', 'No event with this id', 'The event id, evt_…') });

const PageQuery = Type.Object(PAGE_QUERY_FIELDS, { additionalProperties: false });

const ERRORS = errorResponses(401, 404, 405, 422, 429, 500);
const tags = ['Admin'];
const security = [{ adminToken: [] }];

/** Webhook endpoints and their delivery log (contract §10); registered inside the admin scope. */
export const webhookAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/projects/:id/webhook-endpoints',
    {
      schema: {
        operationId: 'adminCreateWebhookEndpoint',
        summary: 'Register a webhook endpoint (the signing secret is shown only in this response)',
        tags,
        security,
        params: ProjectParams,
        body: NewEndpointSchema,
        response: {
          201: Success(
            Type.Object({
              endpoint: EndpointSchema,
              secret: Type.String({
                pattern: '^whsec_[A-Za-z0-9+/]{32,}={0,2}$',
                description: 'Standard Webhooks secret: verify signatures with it',
              }),
            }),
            'The endpoint and its signing secret',
          ),
          ...ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await service.createEndpoint(
        app.db,
        request.params.id,
        request.body,
        app.config.webhookAllowPrivate,
        byOperator(app.clock()),
      );
      reply.code(201);
      return ok(request, 'Webhook endpoint created; store the secret now, it is not shown again', {
        endpoint: toEndpoint(endpoint),
        secret,
      });
    },
  );

  app.get(
    '/projects/:id/webhook-endpoints',
    {
      schema: {
        operationId: 'adminListWebhookEndpoints',
        summary: "A project's webhook endpoints, newest first",
        tags,
        security,
        params: ProjectParams,
        response: { 200: Success(Type.Array(EndpointSchema), 'The endpoints'), ...ERRORS },
      },
    },
    async (request) => {
      const rows = await service.listEndpoints(app.db, request.params.id);
      return ok(request, 'Webhook endpoints', rows.map(toEndpoint));
    },
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      schema: {
        operationId: 'adminDeleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint; deliveries not yet made to it are dropped',
        tags,
        security,
        params: EndpointParams,
        response: { 200: Success(EndpointSchema, 'The deleted endpoint'), ...ERRORS },
      },
    },
    async (request) => {
      const row = await service.deleteEndpoint(app.db, request.params.id, byOperator(app.clock()));
      return ok(request, 'Webhook endpoint deleted', toEndpoint(row));
    },
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        operationId: 'adminListWebhookAttempts',
        summary: "An endpoint's delivery log: one entry per attempt, newest first",
        tags,
        security,
        params: EndpointParams,
        querystring: PageQuery,
        response: {
          200: SuccessWithMeta(Type.Array(AttemptSchema), PaginationMeta, 'A page of attempts'),
          ...ERRORS,
        },
      },
    },
    async (request) => {
      const { rows, pagination } = await service.listAttempts(app.db, request.params.id, request.query);
      return okWithMeta(request, 'Delivery attempts', rows.map(toAttempt), { pagination });
    },
  );

  app.post(
    '/events/:event/redeliver',
    {
      schema: {
        operationId: 'adminRedeliverEvent',
        summary: 'Send an event again, now, to the endpoints it went to that still exist',
        tags,
        security,
        params: EventParams,
        response: { 200: Success(RedeliverySchema, 'What was queued'), ...ERRORS },
      },
    },
    async (request) => {
      const { event, endpoints } = await service.redeliver(
        app.db,
        request.params.event,
        byOperator(app.clock()),
      );
      const n = endpoints.length;
      return ok(
        request,
        `Event queued for ${n} endpoint${n === 1 ? '' : 's'}`,
        toRedelivery(event, endpoints),
      );
    },
  );
};
