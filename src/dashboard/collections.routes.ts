import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectionOverview } from '../collections/overview.js';
import * as collections from '../collections/service.js';
import { relayerStatuses } from '../gasless/wallet.js';
import { ApiError } from '../http/errors.js';
import { change } from './actor.js';
import { validationMessages } from './errors.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { collectionsPage, offReason } from './views/collections.js';
import { relayerPanel } from './views/relayer.js';

const hide = true;
type PageOptions = Parameters<typeof collectionsPage>[3];

/** The page, from the same overview the service gives every surface. */
async function collectionsView(app: FastifyInstance, request: FastifyRequest, opts: PageOptions) {
  const ctx = request.dashboard;
  const networks = app.config.networks;
  const data = await collectionOverview(app.db, app.config, ctx.project.id);
  const balances = data.balances.map((b) => ({
    network: b.network,
    tokens: b.tokens,
    dust: b.dust,
    off: data.payout ? offReason(networks, b.network, b.hasKey, b.state) : undefined,
  }));
  const shown = { payout: data.payout, minDeposit: data.minDeposit, balances, collections: data.collections };
  const relayers = await relayerStatuses({ db: app.db, networks, relayerKey: app.config.relayerKey });
  return collectionsPage(ctx, networks, shown, { ...opts, extra: relayerPanel(relayers) });
}

/** Collections (contract §16): everyone sees what waits and what was collected; owners "Collect now". */
export const collectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';
  const owner = { preValidation: async (request: FastifyRequest) => requireOwner(request.dashboard) };

  const page = (request: FastifyRequest, opts: PageOptions = {}) => collectionsView(app, request, opts);

  app.get(
    '/collections',
    {
      schema: { hide, querystring: Type.Object({ started: Type.Optional(Type.String({ maxLength: 10 })) }) },
    },
    async (request, reply) => {
      const notice = request.query.started
        ? 'Collection started: it is sent by the collector and shows as confirmed once its transaction is.'
        : undefined;
      return reply.type(html).send(await page(request, { notice }));
    },
  );

  app.post(
    '/collections',
    {
      schema: {
        hide,
        body: Type.Object(
          { _csrf: Type.String({ maxLength: 100 }), network: Type.String({ maxLength: 100 }) },
          { additionalProperties: false },
        ),
      },
      ...owner,
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      try {
        await collections.collectNow(
          app.db,
          app.config,
          ctx.project.id,
          request.body.network,
          change(ctx, app.clock()),
        );
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
        return reply
          .code(422)
          .type(html)
          .send(await page(request, { errors: validationMessages(err) }));
      }
      // POST → redirect → GET (contract §17): a reload shows the page, it does not collect again.
      return reply.redirect(`${ROOT}/collections?started=1`, 303);
    },
  );
};
