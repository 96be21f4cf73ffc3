import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { PathId } from '../http/schemas.js';
import { cancelRefund, newClaimLink } from '../refunds/actions.js';
import { readyRefundsCsv } from '../refunds/csv.js';
import { NewRefundSchema } from '../refunds/refund.js';
import * as refunds from '../refunds/service.js';
import { takeSecret } from '../users/form-results.js';
import { change } from './actor.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { keepForResultPage } from './once.js';
import { createdRefundPage, waitingRefundsPage } from './views/refunds.js';

const hide = true;
const Csrf = Type.String({ maxLength: 100 });
const InvoiceParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const RefundParams = Type.Object({ id: PathId('ref', 'No refund with this id', 'The refund id') });
const owner = async (request: { dashboard: Parameters<typeof requireOwner>[0] }) =>
  requireOwner(request.dashboard);

/**
 * Refunds (contract §18) in the dashboard: "Refund" on an invoice's page, the list of refunds waiting
 * for the merchant's wallet, their CSV, and "Cancel". The same service functions as the merchant API;
 * each change writes its audit row in its own transaction (src/refunds/service.ts).
 */
export const refundRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';

  app.post(
    '/invoices/:id/refunds',
    {
      schema: {
        hide,
        params: InvoiceParams,
        body: Type.Object(
          {
            _csrf: Csrf,
            // Only a bound on what is read: the fields' own rules are the API's (below).
            amount: Type.Optional(Type.String({ maxLength: 10_000 })),
            reason: Type.Optional(Type.String({ maxLength: 10_000 })),
          },
          { additionalProperties: false },
        ),
      },
      preValidation: owner,
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      // An empty field is an absent one: all that is left, no reason.
      const amount = request.body.amount?.trim() || undefined;
      const reason = request.body.reason?.trim() || undefined;
      // The merchant API's rules for a new refund (refunds/refund.ts), on the values as stored.
      const errors = app.checkFields(NewRefundSchema, { amount, reason });
      if (errors.length > 0) throw ApiError.validation(errors);
      const { refund } = await refunds.createRefund(
        app.db,
        { kind: 'dashboard', projectId: ctx.project.id, change: change(ctx, now) },
        request.params.id,
        { amount, reason },
        { now, publicBaseUrl: app.config.publicBaseUrl },
      );
      const form = await keepForResultPage(request, refund.claim_url as string);
      return reply.redirect(`${ROOT}/refunds/${refund.id}/created?form=${form}`, 303);
    },
  );

  // The result page of "Refund": the claim link on its first load only.
  app.get(
    '/refunds/:id/created',
    {
      schema: {
        hide,
        params: RefundParams,
        querystring: Type.Object({ form: Type.Optional(Type.String({ maxLength: 100 })) }),
      },
      preValidation: owner,
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const refund = await refunds.findRefund(app.db, ctx.project.id, request.params.id);
      const link = await takeSecret(app.db, ctx.session, request.query.form ?? '');
      return reply.type(html).send(createdRefundPage(ctx, refund, link));
    },
  );

  app.get(
    '/refunds',
    {
      schema: { hide, querystring: Type.Object({ canceled: Type.Optional(Type.String({ maxLength: 10 })) }) },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const waiting = await refunds.waitingRefunds(app.db, ctx.project.id);
      const notice = request.query.canceled ? 'Refund canceled.' : undefined;
      return reply.type(html).send(waitingRefundsPage(ctx, waiting, app.config.networks, notice));
    },
  );

  app.get('/refunds/export.csv', { schema: { hide } }, async (request, reply) => {
    const stamp = app.clock().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="refunds-ready-${stamp}.csv"`)
      .send(readyRefundsCsv(app.db, request.dashboard.project.id));
  });

  // "New claim link": the merchant API's function; the new link on the result page, once.
  app.post(
    '/refunds/:id/claim-link',
    {
      schema: {
        hide,
        params: RefundParams,
        body: Type.Object({ _csrf: Csrf }, { additionalProperties: false }),
      },
      preValidation: owner,
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      const who = { kind: 'dashboard', projectId: ctx.project.id, change: change(ctx, now) } as const;
      const at = { now, publicBaseUrl: app.config.publicBaseUrl };
      const { refund } = await newClaimLink(app.db, who, { refundId: request.params.id }, at);
      const form = await keepForResultPage(request, refund.claim_url as string);
      return reply.redirect(`${ROOT}/refunds/${refund.id}/created?form=${form}`, 303);
    },
  );

  app.post(
    '/refunds/:id/cancel',
    {
      schema: {
        hide,
        params: RefundParams,
        body: Type.Object(
          { _csrf: Csrf, back: Type.Optional(Type.String({ maxLength: 200 })) },
          { additionalProperties: false },
        ),
      },
      preValidation: owner,
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      const who = { kind: 'dashboard', projectId: ctx.project.id, change: change(ctx, now) } as const;
      await cancelRefund(app.db, who, { refundId: request.params.id }, now);
      // Back to the page the button was on: an invoice's page, or the list; never another site.
      const back = request.body.back;
      const target =
        back && /^\/dashboard\/invoices\/inv_[A-Za-z0-9]{1,60}$/.test(back) ? back : `${ROOT}/refunds`;
      return reply.redirect(`${target}?canceled=1`, 303);
    },
  );
};
