import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PathId } from '../http/schemas.js';
import { mailQueueing } from '../mail/queueing.js';
import { cancelRefund, newClaimLink } from '../refunds/actions.js';
import { change } from './actor.js';
import type { DashboardContext } from './context.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { keepForResultPage } from './once.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });
const params = Type.Object({ id: PathId('ref', 'No refund with this id', 'The refund id') });
const owner = async (request: { dashboard: Parameters<typeof requireOwner>[0] }) =>
  requireOwner(request.dashboard);

const claimLinkSchema = { hide, params, body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }) };
const cancelSchema = {
  hide,
  params,
  body: Type.Object(
    { _csrf: Csrf, back: Type.Optional(Type.String({ maxLength: 200 })) },
    { additionalProperties: false },
  ),
};

const dashboardUser = (ctx: DashboardContext, now: Date) =>
  ({ kind: 'dashboard', projectId: ctx.project.id, change: change(ctx, now) }) as const;

/**
 * "New claim link" and "Cancel" on a refund (contract §22): the merchant API's functions
 * (refunds/actions.ts), each audited in the transaction of its change.
 */
export const refundActionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The new link on the result page, once.
  app.post(
    '/refunds/:id/claim-link',
    { schema: claimLinkSchema, preValidation: owner },
    async (request, reply) => {
      const now = app.clock();
      const who = dashboardUser(request.dashboard, now);
      const at = {
        now,
        publicBaseUrl: app.config.publicBaseUrl,
        mail: mailQueueing(app.config.mail, app.secretKey),
      };
      const { refund } = await newClaimLink(app.db, who, { refundId: request.params.id }, at);
      const form = await keepForResultPage(request, refund.claim_url as string);
      return reply.redirect(`${ROOT}/refunds/${refund.id}/created?form=${form}`, 303);
    },
  );

  app.post('/refunds/:id/cancel', { schema: cancelSchema, preValidation: owner }, async (request, reply) => {
    const now = app.clock();
    await cancelRefund(app.db, dashboardUser(request.dashboard, now), { refundId: request.params.id }, now);
    // Back to the page the button was on: an invoice's page, or the list; never another site.
    const back = request.body.back;
    const target =
      back && /^\/dashboard\/invoices\/inv_[A-Za-z0-9]{1,60}$/.test(back) ? back : `${ROOT}/refunds`;
    return reply.redirect(`${target}?canceled=1`, 303);
  });
};
