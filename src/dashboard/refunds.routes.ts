import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { PathId } from '../http/schemas.js';
import { mailQueueing } from '../mail/queueing.js';
import { findRefund } from '../refunds/browse.js';
import { createRefund } from '../refunds/create.js';
import { NewRefundSchema } from '../refunds/refund.js';
import { takeSecret } from '../users/form-results.js';
import { change } from './actor.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { keepForResultPage } from './once.js';
import { createdRefundPage } from './views/refunds.js';

const hide = true;
const owner = async (request: { dashboard: Parameters<typeof requireOwner>[0] }) =>
  requireOwner(request.dashboard);

const createSchema = {
  hide,
  params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
  body: Type.Object(
    {
      _csrf: Type.String({ maxLength: 100 }),
      // Only a bound on what is read: the fields' own rules are the API's (below).
      amount: Type.Optional(Type.String({ maxLength: 10_000 })),
      reason: Type.Optional(Type.String({ maxLength: 10_000 })),
    },
    { additionalProperties: false },
  ),
};

const createdSchema = {
  hide,
  params: Type.Object({ id: PathId('ref', 'No refund with this id', 'The refund id') }),
  querystring: Type.Object({ form: Type.Optional(Type.String({ maxLength: 100 })) }),
};

/**
 * "Refund" on an invoice's page (contract §18), and its result page with the claim link shown once:
 * the merchant API's create, with the same field rules; audited in its own transaction (create.ts).
 * The list, its batch files and the actions on a refund are refund-waiting.routes.ts and
 * refund-actions.routes.ts.
 */
export const refundRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/invoices/:id/refunds',
    { schema: createSchema, preValidation: owner },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      // An empty field is an absent one: all that is left, no reason.
      const amount = request.body.amount?.trim() || undefined;
      const reason = request.body.reason?.trim() || undefined;
      // The merchant API's rules for a new refund (refunds/refund.ts), on the values as stored.
      const errors = app.checkFields(NewRefundSchema, { amount, reason });
      if (errors.length > 0) throw ApiError.validation(errors);
      const who = { kind: 'dashboard', projectId: ctx.project.id, change: change(ctx, now) } as const;
      const at = {
        now,
        publicBaseUrl: app.config.publicBaseUrl,
        mail: mailQueueing(app.config.mail, app.secretKey),
      };
      const { refund } = await createRefund(app.db, who, request.params.id, { amount, reason }, at);
      const form = await keepForResultPage(request, refund.claim_url as string);
      return reply.redirect(`${ROOT}/refunds/${refund.id}/created?form=${form}`, 303);
    },
  );

  // The result page of "Refund" and "New claim link": the claim link on its first load only.
  app.get('/refunds/:id/created', { schema: createdSchema, preValidation: owner }, async (request, reply) => {
    const ctx = request.dashboard;
    const refund = await findRefund(app.db, ctx.project.id, request.params.id);
    const link = await takeSecret(app.db, ctx.session, request.query.form ?? '');
    return reply.type('text/html; charset=utf-8').send(createdRefundPage(ctx, refund, link));
  });
};
