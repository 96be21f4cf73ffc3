import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { enforce, type Limit } from '../http/rate-limit.js';
import { sendImmutable } from '../web/assets.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { accountRoutes } from './account.routes.js';
import { dashboardAssets } from './assets.js';
import { authRoutes } from './auth.routes.js';
import { brandingRoutes } from './branding.routes.js';
import { collectionRoutes } from './collections.routes.js';
import { dashboardErrors } from './errors.js';
import { acceptForms } from './form.js';
import { guardDashboard } from './guard.js';
import { invoiceRoutes } from './invoices.routes.js';
import { keyRoutes } from './keys.routes.js';
import { linkRoutes } from './links.routes.js';
import { sendOnce } from './once.js';
import { overviewRoutes } from './overview.routes.js';
import { posRoutes } from './pos.routes.js';
import { refundActionRoutes } from './refund-actions.routes.js';
import { waitingRefundRoutes } from './refund-waiting.routes.js';
import { refundRoutes } from './refunds.routes.js';
import { sessionRoutes } from './session.routes.js';
import { settingsRoutes } from './settings.routes.js';
import { teamRoutes } from './team.routes.js';
import { webhookRoutes } from './webhooks.routes.js';

/** Per client address, over every dashboard request: generous for a person, a wall for a script. */
export const DASHBOARD_LIMIT: Limit = { max: 600, windowMs: 60_000 };
const hide = true;

/**
 * The merchant dashboard (contract §13) under /dashboard: server-rendered pages over the same
 * services as the admin and merchant APIs. Strict CSP, no caching of pages, forms only.
 */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const assets = dashboardAssets();
  acceptForms(app);
  app.decorateRequest('dashboard', null as never);
  app.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(reply);
    // Unlike the payment page's no-referrer: with it Chrome posts forms with `Origin: null`, which the
    // Origin check could not tell from a sandboxed attacker. Other sites still get no referrer.
    reply.header('Referrer-Policy', 'same-origin');
    noStore(reply);
    await enforce(app.limiter, reply, `dash:${request.ip}`, DASHBOARD_LIMIT, app.clock().getTime());
  });
  app.setErrorHandler(dashboardErrors);

  app.get(
    '/assets/:name',
    { schema: { hide, params: Type.Object({ name: Type.String({ maxLength: 100 }) }) } },
    async (request, reply) => {
      const asset = assets.byName.get(request.params.name);
      if (!asset) throw ApiError.notFound('No such file');
      return sendImmutable(request, reply, asset);
    },
  );
  await app.register(authRoutes);
  // Any other path under /dashboard is the dashboard's own 404 page (JSON under /dashboard/api).
  app.get('/*', { schema: { hide } }, async () => {
    throw ApiError.notFound('There is no such page in the dashboard.');
  });

  await app.register(async (signedIn) => {
    guardDashboard(signedIn);
    sendOnce(signedIn);
    await signedIn.register(sessionRoutes);
    await signedIn.register(overviewRoutes);
    await signedIn.register(invoiceRoutes);
    await signedIn.register(refundRoutes);
    await signedIn.register(refundActionRoutes);
    await signedIn.register(waitingRefundRoutes);
    await signedIn.register(linkRoutes);
    await signedIn.register(keyRoutes);
    await signedIn.register(webhookRoutes);
    await signedIn.register(collectionRoutes);
    await signedIn.register(posRoutes);
    await signedIn.register(settingsRoutes);
    await signedIn.register(brandingRoutes);
    await signedIn.register(teamRoutes);
    await signedIn.register(accountRoutes);
  });
};
