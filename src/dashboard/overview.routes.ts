import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { projectStats } from '../invoices/stats.js';
import { overviewPage } from './views/overview.js';

const DAYS = 30;

/** The Overview (heading "Overview"): invoices by status and 30 days of paid volume. */
export const overviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const ctx = request.dashboard;
    const stats = await projectStats(app.db, ctx.project.id, app.clock(), DAYS);
    return reply
      .type('text/html; charset=utf-8')
      .send(overviewPage(ctx, app.config.networks, stats.byStatus, stats.perDay));
  });
};
