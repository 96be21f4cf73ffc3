import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ok, okWithMeta } from '../http/envelope.js';
import { PAGE_QUERY_FIELDS, PaginationMeta } from '../http/pagination.js';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  PathId,
  RATE_LIMIT_HEADERS,
  Success,
  SuccessWithMeta,
} from '../http/schemas.js';
import { InvoiceSchema, toInvoice } from '../invoices/invoice.js';
import { requester } from '../refunds/requester.js';
import { NewPaymentLinkSchema, PaymentLinkChangeSchema, PaymentLinkSchema, toPaymentLink } from './link.js';
import * as service from './service.js';

const LinkRef = Type.Ref(PaymentLinkSchema);
const Params = Type.Object({
  link: PathId('plink', 'No payment link with this id', 'The payment link id, plink_…'),
});
const PageQuery = Type.Object({ ...PAGE_QUERY_FIELDS }, { additionalProperties: false });
const tags = ['Payment links'];

/** The merchant API's payment links (contract §25). */
export const paymentLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const view = (row: Parameters<typeof toPaymentLink>[0]) => toPaymentLink(row, app.config.publicBaseUrl);

  app.post(
    '/payment-links',
    {
      schema: {
        operationId: 'createPaymentLink',
        summary: 'Create a payment link',
        description:
          'A page to share (`url`) where a payer makes an invoice by pressing "Pay": a fixed `amount`, or none and the payer chooses within `min_amount`/`max_amount`. Opening the page makes nothing.',
        tags,
        body: NewPaymentLinkSchema,
        response: {
          201: Success(LinkRef, 'The link', RATE_LIMIT_HEADERS),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const row = await service.createLink(app.db, requester(request.principal), request.body, app.clock());
      reply.code(201).header('Location', `/v1/merchant/payment-links/${row.id}`);
      return ok(request, 'Payment link created', view(row));
    },
  );

  app.get(
    '/payment-links',
    {
      schema: {
        operationId: 'listPaymentLinks',
        summary: 'List payment links, newest first',
        tags,
        querystring: PageQuery,
        response: {
          200: SuccessWithMeta(Type.Array(LinkRef), PaginationMeta, 'A page of links', RATE_LIMIT_HEADERS),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const { rows, pagination } = await service.listLinks(
        app.db,
        requester(request.principal),
        request.query,
      );
      return okWithMeta(request, 'Payment links', rows.map(view), { pagination });
    },
  );

  app.get(
    '/payment-links/:link',
    {
      schema: {
        operationId: 'getPaymentLink',
        summary: 'Get one payment link',
        tags,
        params: Params,
        response: {
          200: Success(LinkRef, 'The link', RATE_LIMIT_HEADERS),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const row = await service.getLink(app.db, requester(request.principal), request.params.link);
      return ok(request, 'Payment link', view(row));
    },
  );

  app.patch(
    '/payment-links/:link',
    {
      schema: {
        operationId: 'updatePaymentLink',
        summary: 'Change a payment link',
        description:
          'Deactivate or reactivate it, or change its words, limits and expiry. Its price and currency stay as shared.',
        tags,
        params: Params,
        body: PaymentLinkChangeSchema,
        response: {
          200: Success(LinkRef, 'The link as changed', RATE_LIMIT_HEADERS),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const who = requester(request.principal);
      const row = await service.changeLink(app.db, who, request.params.link, request.body, app.clock());
      return ok(request, 'Payment link changed', view(row));
    },
  );

  app.get(
    '/payment-links/:link/invoices',
    {
      schema: {
        operationId: 'listPaymentLinkInvoices',
        summary: "A payment link's invoices, newest first",
        tags,
        params: Params,
        querystring: PageQuery,
        response: {
          200: SuccessWithMeta(
            Type.Array(Type.Ref(InvoiceSchema)),
            PaginationMeta,
            'A page of invoices',
            RATE_LIMIT_HEADERS,
          ),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const who = requester(request.principal);
      const { rows, pagination } = await service.linkInvoices(
        app.db,
        who,
        request.params.link,
        request.query,
      );
      const data = rows.map((r) => toInvoice(r, app.config.publicBaseUrl, r.payments, r.refunds));
      return okWithMeta(request, 'Invoices', data, { pagination });
    },
  );
};
