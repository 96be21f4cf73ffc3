import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../http/errors.js';
import { PathId } from '../http/schemas.js';
import { toInvoice } from '../invoices/invoice.js';
import { type NewPaymentLink, NewPaymentLinkSchema, toPaymentLink } from '../links/link.js';
import * as links from '../links/service.js';
import type { Requester } from '../refunds/requester.js';
import { change } from './actor.js';
import type { DashboardContext } from './context.js';
import { field } from './form.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { linkPage, linksPage, newLinkPage } from './views/links.js';

const hide = true;
const html = 'text/html; charset=utf-8';
const Params = Type.Object({ id: PathId('plink', 'No payment link with this id', 'The payment link id') });
const Form = Type.Record(
  Type.String(),
  Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String())]),
);
const PAGE = { limit: 100, page: 1 };

const who = (ctx: DashboardContext, now: Date): Requester => ({
  kind: 'dashboard',
  projectId: ctx.project.id,
  change: change(ctx, now),
});

/** The form's fields as the API takes them: an empty field is absent. */
function newLinkInput(body: unknown): Record<string, unknown> {
  const given = (name: string) => field(body, name).trim() || undefined;
  const uses = given('max_uses');
  return {
    title: field(body, 'title').trim(),
    description: given('description'),
    amount: given('amount'),
    min_amount: given('min_amount'),
    max_amount: given('max_amount'),
    collect_email: field(body, 'collect_email') === 'true',
    ...(uses === undefined
      ? {}
      : { max_uses: /^\d{1,10}$/.test(uses) ? Number(uses) : (uses as unknown as number) }),
  };
}

/** "Payment links" (contract §25), over the same service functions as the merchant API. */
export const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const view = (row: Parameters<typeof toPaymentLink>[0]) => toPaymentLink(row, app.config.publicBaseUrl);

  app.get('/payment-links', { schema: { hide } }, async (request, reply) => {
    const ctx = request.dashboard;
    const { rows } = await links.listLinks(app.db, who(ctx, app.clock()), PAGE);
    return reply.type(html).send(linksPage(ctx, rows.map(view)));
  });

  app.get('/payment-links/new', { schema: { hide } }, async (request, reply) => {
    requireOwner(request.dashboard);
    return reply.type(html).send(newLinkPage(request.dashboard));
  });

  app.post('/payment-links', { schema: { hide, body: Form } }, async (request, reply) => {
    const ctx = request.dashboard;
    requireOwner(ctx);
    const input = newLinkInput(request.body);
    // The API's rules for a new link, on the form's answers.
    const errors = app.checkFields(NewPaymentLinkSchema, input);
    if (errors.length > 0) throw ApiError.validation(errors);
    const row = await links.createLink(app.db, who(ctx, app.clock()), input as NewPaymentLink, app.clock());
    return reply.redirect(`${ROOT}/payment-links/${row.id}?created=1`, 303);
  });

  app.get(
    '/payment-links/:id',
    {
      schema: {
        hide,
        params: Params,
        querystring: Type.Object({ created: Type.Optional(Type.String({ maxLength: 5 })) }),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const requester = who(ctx, app.clock());
      const link = await links.getLink(app.db, requester, request.params.id);
      const { rows } = await links.linkInvoices(app.db, requester, link.id, PAGE);
      const invoices = rows.map((r) => toInvoice(r, app.config.publicBaseUrl, r.payments, r.refunds));
      const notice = request.query.created
        ? 'Payment link created. Share its link, or paste its pay button.'
        : undefined;
      return reply.type(html).send(linkPage(ctx, view(link), invoices, notice));
    },
  );

  app.post(
    '/payment-links/:id/active',
    { schema: { hide, params: Params, body: Form } },
    async (request, reply) => {
      const ctx = request.dashboard;
      requireOwner(ctx);
      const active = field(request.body, 'active') === 'true';
      await links.changeLink(app.db, who(ctx, app.clock()), request.params.id, { active }, app.clock());
      return reply.redirect(`${ROOT}/payment-links/${request.params.id}`, 303);
    },
  );
};
