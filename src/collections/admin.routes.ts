import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { byOperator } from '../audit/audit.js';
import { ok } from '../http/envelope.js';
import { errorResponses, PathId, Success } from '../http/schemas.js';
import { NetworkName } from '../merchants/fields.js';
import { CollectionSchema } from './collection.js';
import * as service from './service.js';

const ProjectParams = Type.Object({ id: PathId('prj', 'No project with this id', 'The project id, prj_…') });
const CollectionRef = Type.Ref(CollectionSchema);
const ADMIN_ERRORS = errorResponses(401, 404, 405, 422, 429, 500);
const tags = ['Admin'];

/** A project's collections (contract §16), for the operator; the dashboard's "Collect now" calls the same service. */
export const collectionAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/projects/:id/collections',
    {
      schema: {
        operationId: 'adminCollectNow',
        summary: "Collect a project's deposits on a network now",
        description:
          "Takes the project's confirmed deposits on the network that are still in their forwarders into collections of up to 100 (one transaction each), sent by that network's collector. Answers the first, `pending`; `collection.confirmed` or `collection.failed` follows.",
        tags,
        params: ProjectParams,
        body: Type.Object({ network: NetworkName }, { additionalProperties: false }),
        response: {
          202: Success(Type.Object({ collection: CollectionRef }), 'The collection, pending'),
          ...ADMIN_ERRORS,
        },
      },
    },
    async (request, reply) => {
      const collection = await service.collectNow(
        app.db,
        app.config,
        request.params.id,
        request.body.network,
        byOperator(app.clock()),
      );
      reply.code(202);
      return ok(request, 'Collection started', { collection });
    },
  );

  app.get(
    '/projects/:id/collections',
    {
      schema: {
        operationId: 'adminListCollections',
        summary: "A project's collections, newest first",
        tags,
        params: ProjectParams,
        response: {
          200: Success(Type.Array(CollectionRef), 'The collections (the latest 100)'),
          ...ADMIN_ERRORS,
        },
      },
    },
    async (request) => ok(request, 'Collections', await service.listCollections(app.db, request.params.id)),
  );
};
