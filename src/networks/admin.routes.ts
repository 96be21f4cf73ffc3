import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ok } from '../http/envelope.js';
import { errorResponses, Success } from '../http/schemas.js';
import { MAX_PREVIEW, previewAddresses } from './preview.js';

const PreviewSchema = Type.Object({
  network: Type.String({ examples: ['tron'] }),
  addresses: Type.Array(
    Type.Object({
      index: Type.Integer({
        minimum: 0,
        description: "The child index: the address is m/44'/<coin>'/0'/0/index",
      }),
      address: Type.String({ examples: ['TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'] }),
    }),
  ),
});

/** The operator's view of the networks, under /v1/admin (see app.ts). */
export const networkAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // POST, not GET: an xpub reveals every address of the wallet, so it stays out of URLs and access logs.
  app.post(
    '/deposit-addresses/preview',
    {
      schema: {
        operationId: 'adminPreviewDepositAddresses',
        summary: 'The first deposit addresses an xpub gives on a network',
        description:
          'To compare with the receiving addresses the wallet lists before giving the xpub to a project: `0x…` on EVM networks, `T…` on TRON. Nothing is stored.',
        tags: ['Admin'],
        body: Type.Object(
          {
            network: Type.String({ pattern: '^[a-z0-9-]{1,32}$', examples: ['tron'] }),
            xpub: Type.String({ minLength: 1, maxLength: 200, examples: ['xpub6D…'] }),
            count: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PREVIEW, default: 3 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Success(PreviewSchema, 'The addresses at 0/0, 0/1, …'),
          ...errorResponses(401, 404, 405, 422, 429, 500),
        },
      },
    },
    async (request) => {
      const { network, xpub, count = 3 } = request.body;
      return ok(
        request,
        'Deposit addresses derived',
        previewAddresses(app.config.networks, { network, xpub, count }),
      );
    },
  );
};
