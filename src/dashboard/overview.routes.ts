import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { INVOICE_STATUSES } from '../invoices/status.js';
import { countByStatus, paidPerDay } from './overview.repository.js';
import { overviewPage } from './views/overview.js';

const DAYS = 30;

/** The Overview (heading "Overview"): invoices by status and 30 days of paid volume. */
export const overviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const ctx = request.dashboard;
    const now = app.clock();
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (DAYS - 1) * 86_400_000);
    const [counts, paid] = await Promise.all([
      countByStatus(app.db, ctx.project.id),
      paidPerDay(app.db, ctx.project.id, from),
    ]);
    const byDay = new Map(paid.map((p) => [p.day, p]));
    const days = Array.from({ length: DAYS }, (_, i) => {
      const day = new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      const row = byDay.get(day);
      return {
        day,
        volume: row?.volume ?? '0',
        cents: BigInt(row?.cents ?? 0),
        count: Number(row?.count ?? 0),
      };
    });
    const statuses = INVOICE_STATUSES.map((s) => ({ status: s, count: counts.get(s) ?? 0n }));
    return reply.type('text/html; charset=utf-8').send(overviewPage(ctx, statuses, days));
  });
};
