import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { readyNetworks, waitingRefunds } from '../refunds/browse.js';
import { readyRefundsCsv } from '../refunds/csv.js';
import { safeBatch } from '../refunds/safe-batch.js';
import { waitingRefundsPage } from './views/refunds.js';

const hide = true;
const listSchema = {
  hide,
  querystring: Type.Object({ canceled: Type.Optional(Type.String({ maxLength: 10 })) }),
};
const safeSchema = { hide, querystring: Type.Object({ network: Type.String({ maxLength: 100 }) }) };

/**
 * The refunds waiting for the merchant's wallet (contract §18, §22), and the ready ones as batch
 * files: the CSV of every network, and per EVM network a Safe Transaction Builder file, one
 * transaction the merchant's Safe signs that pays them all (refunds/safe-batch.ts).
 */
export const waitingRefundRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/refunds', { schema: listSchema }, async (request, reply) => {
    const projectId = request.dashboard.project.id;
    const [waiting, ready] = await Promise.all([
      waitingRefunds(app.db, projectId),
      readyNetworks(app.db, projectId, app.config.networks),
    ]);
    const notice = request.query.canceled ? 'Refund canceled.' : undefined;
    const page = waitingRefundsPage(request.dashboard, waiting, ready, app.config.networks, notice);
    return reply.type('text/html; charset=utf-8').send(page);
  });

  app.get('/refunds/export.csv', { schema: { hide } }, async (request, reply) => {
    const stamp = app.clock().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="refunds-ready-${stamp}.csv"`)
      .send(readyRefundsCsv(app.db, request.dashboard.project.id));
  });

  app.get('/refunds/export.safe.json', { schema: safeSchema }, async (request, reply) => {
    const now = app.clock();
    const projectId = request.dashboard.project.id;
    const { file, network } = await safeBatch(
      app.db,
      projectId,
      request.query.network,
      app.config.networks,
      now,
    );
    const name = `refunds-ready-${network.name}-${now.toISOString().slice(0, 10)}.safe.json`;
    return reply
      .type('application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${name}"`)
      .send(JSON.stringify(file, null, 2));
  });
};
