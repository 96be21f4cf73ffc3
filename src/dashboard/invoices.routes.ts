import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PathId, StringEnum } from '../http/schemas.js';
import { invoiceDetail, invoicePage } from '../invoices/browse.js';
import { invoiceCsv } from '../invoices/csv.js';
import { toInvoice } from '../invoices/invoice.js';
import { INVOICE_STATUSES } from '../invoices/status.js';
import { leftToRefund, refundsOfInvoice } from '../refunds/browse.js';
import { deliveriesOf, resendInvoiceEvent } from '../webhooks/service.js';
import { change } from './actor.js';
import { requireOwner } from './guard.js';
import { ROOT } from './layout.js';
import { invoicePage as detailPage } from './views/invoice.js';
import { invoicesPage } from './views/invoices.js';

const hide = true;
const ListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(['', ...INVOICE_STATUSES])),
    q: Type.Optional(Type.String({ maxLength: 200 })),
    after: Type.Optional(Type.String({ maxLength: 100 })),
    before: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
const ExportQuery = Type.Object(
  { status: ListQuery.properties.status, q: ListQuery.properties.q },
  { additionalProperties: false },
);
const InvoiceParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const ResendParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  event: PathId('evt', 'No event with this id', 'The event id'),
});

/** Invoices: the list (filters in the URL), the CSV export, and each invoice's detail. */
export const invoiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const html = 'text/html; charset=utf-8';

  app.get('/invoices', { schema: { hide, querystring: ListQuery } }, async (request, reply) => {
    const ctx = request.dashboard;
    const { status, q } = request.query;
    const page = await invoicePage(app.db, ctx.project.id, { ...request.query, status: status || undefined });
    return reply.type(html).send(invoicesPage(ctx, { ...page, status: status ?? '', q: q ?? '' }));
  });

  app.get('/invoices/export.csv', { schema: { hide, querystring: ExportQuery } }, async (request, reply) => {
    const ctx = request.dashboard;
    const { status, q } = request.query;
    const stamp = app.clock().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="invoices-${stamp}.csv"`)
      .send(invoiceCsv(app.db, ctx.project.id, { status: status || undefined, q }));
  });

  app.get(
    '/invoices/:id',
    {
      schema: {
        hide,
        params: InvoiceParams,
        querystring: Type.Object({
          resent: Type.Optional(Type.String({ maxLength: 10 })),
          canceled: Type.Optional(Type.String({ maxLength: 10 })),
        }),
      },
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const found = await invoiceDetail(app.db, ctx.project.id, request.params.id);
      const [deliveries, refunds] = await Promise.all([
        deliveriesOf(
          app.db,
          found.events.map((e) => e.id),
        ),
        refundsOfInvoice(app.db, ctx.project.id, found.invoice.id),
      ]);
      // The page lists the refunds themselves (refundsOfInvoice): the invoice object's summary is not needed.
      const shown = toInvoice(found.invoice, app.config.publicBaseUrl, found.payments, []);
      const detail = { ...found, deliveries, shown, refunds, left: leftToRefund(found.invoice) };
      const payUrl = shown.payment_url;
      const notice = request.query.resent
        ? 'Event queued to be sent again.'
        : request.query.canceled
          ? 'Refund canceled.'
          : undefined;
      return reply.type(html).send(detailPage(ctx, detail, app.config.networks, payUrl, notice));
    },
  );

  app.post(
    '/invoices/:id/events/:event/resend',
    {
      schema: {
        hide,
        params: ResendParams,
        body: Type.Object({ _csrf: Type.String() }, { additionalProperties: false }),
      },
      preValidation: async (request) => requireOwner(request.dashboard),
    },
    async (request, reply) => {
      const ctx = request.dashboard;
      const now = app.clock();
      const { id, event } = request.params;
      await resendInvoiceEvent(app.db, ctx.project.id, id, event, change(ctx, now));
      return reply.redirect(`${ROOT}/invoices/${id}?resent=1`, 303);
    },
  );
};
