import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ok, okWithMeta } from '../http/envelope.js';
import { PAGE_QUERY_FIELDS, PaginationMeta } from '../http/pagination.js';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  nullable,
  PathId,
  RATE_LIMIT_HEADERS,
  Success,
  SuccessWithMeta,
} from '../http/schemas.js';
import { noControlCharacters } from '../http/validation.js';
import { idempotencyKeyFormat } from './idempotency.js';
import {
  amountFormat,
  InvoiceSchema,
  MAX_DESCRIPTION_LENGTH,
  MAX_METADATA_KEYS,
  MAX_ORDER_ID_LENGTH,
  statusListFormat,
  toInvoice,
} from './invoice.js';
import { MAX_RETURN_URL_LENGTH, RETURN_URL_FORMAT } from './return-url.js';
import * as service from './service.js';

const CreateInvoiceBody = Type.Object(
  {
    amount: Type.String({
      format: amountFormat.name,
      description: 'Positive decimal string, at most 2 decimals and 15 integer digits; never a JSON number',
      examples: ['10.50'],
    }),
    order_id: Type.Optional(
      nullable(
        Type.String({ minLength: 1, maxLength: MAX_ORDER_ID_LENGTH, format: noControlCharacters.name }),
      ),
    ),
    description: Type.Optional(
      nullable(
        Type.String({
          maxLength: MAX_DESCRIPTION_LENGTH,
          format: noControlCharacters.name,
          description:
            'What the payer is paying for, shown on the payment page: at most 500 characters, one line',
          examples: ['2 × Espresso beans, 1 kg'],
        }),
      ),
    ),
    metadata: Type.Optional(
      nullable(
        Type.Unsafe<Record<string, string>>({
          type: 'object',
          maxProperties: MAX_METADATA_KEYS,
          propertyNames: { minLength: 1, maxLength: 40 },
          additionalProperties: { type: 'string', maxLength: 500 },
          description: 'Up to 20 string values of your own, returned as given',
        }),
      ),
    ),
    redirect_url: Type.Optional(nullable(ReturnUrl('Where the paid view sends the payer back to your shop'))),
    cancel_url: Type.Optional(nullable(ReturnUrl('Where the waiting view\'s "Cancel and return" goes'))),
    network: Type.Optional(
      nullable(
        Type.String({
          pattern: '^[a-z0-9-]{1,32}$',
          description:
            "Offer only this network's payment methods (one the project accepts; rule `not_accepted` otherwise)",
          examples: ['tron'],
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

function ReturnUrl(what: string) {
  return Type.String({
    format: RETURN_URL_FORMAT,
    maxLength: MAX_RETURN_URL_LENGTH,
    description: `${what}: an absolute https:// URL (http:// to localhost only when PAYDESK_WEBHOOK_ALLOW_PRIVATE=true), at most 2,000 characters`,
    examples: ['https://shop.example/orders/42'],
  });
}

const CreateInvoiceHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      format: idempotencyKeyFormat.name,
      description:
        'Retrying with the same key returns the first invoice instead of creating another (kept 24 h)',
    }),
  ),
});

const ListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.String({
        format: statusListFormat.name,
        description: 'One status, or several separated by commas',
        examples: ['pending', 'paid,expired'],
      }),
    ),
    order_id: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_ORDER_ID_LENGTH })),
    ...PAGE_QUERY_FIELDS,
  },
  { additionalProperties: false },
);

const InvoiceParams = Type.Object({
  invoice: PathId('inv', 'No invoice with this id', 'The invoice id, inv_…'),
});

const InvoiceRef = Type.Ref(InvoiceSchema);

export const invoiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/invoices',
    {
      schema: {
        operationId: 'createInvoice',
        summary: 'Create an invoice',
        description:
          'The invoice takes its currency, network and lifetime from the project. ' +
          'Send an Idempotency-Key to retry safely.',
        tags: ['Invoices'],
        headers: CreateInvoiceHeaders,
        body: CreateInvoiceBody,
        response: {
          201: Success(InvoiceRef, 'The invoice (also on an idempotent replay)', {
            Location: Type.String({
              description: 'The URL of the invoice',
              examples: ['/v1/merchant/invoices/inv_4gT8qLz2NwX7bVc9Rm3Kp5Yd'],
            }),
            'Idempotent-Replayed': Type.Literal('true', {
              description:
                'Sent only when an earlier request with the same Idempotency-Key created the invoice',
            }),
            ...RATE_LIMIT_HEADERS,
          }),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const { invoice, replayed, view } = await service.createInvoice(
        app.db,
        request.principal,
        request.body,
        request.headers['idempotency-key'],
        {
          now: app.clock(),
          publicBaseUrl: app.config.publicBaseUrl,
          networks: app.config.networks,
          rates: app.rates,
          dustPercent: app.config.dustPercent,
          watching: app.watching,
        },
      );
      reply.code(201).header('Location', `/v1/merchant/invoices/${invoice.id}`);
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return ok(
        request,
        'Invoice created',
        view ?? toInvoice(invoice, app.config.publicBaseUrl, invoice.payments, invoice.refunds),
      );
    },
  );

  app.get(
    '/invoices',
    {
      schema: {
        operationId: 'listInvoices',
        summary: 'List invoices, newest first',
        description:
          'Ordered by created_at, then id, descending, so pages are stable. A page past the end is empty.',
        tags: ['Invoices'],
        querystring: ListQuery,
        response: {
          200: SuccessWithMeta(
            Type.Array(InvoiceRef),
            PaginationMeta,
            'A page of invoices',
            RATE_LIMIT_HEADERS,
          ),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const { rows, pagination } = await service.listInvoices(app.db, request.principal, request.query);
      const data = rows.map((r) => toInvoice(r, app.config.publicBaseUrl, r.payments, r.refunds));
      return okWithMeta(request, 'Invoices', data, { pagination });
    },
  );

  app.get(
    '/invoices/:invoice',
    {
      schema: {
        operationId: 'getInvoice',
        summary: 'Get one invoice',
        description: "An unknown id and another project's invoice are both NOT_FOUND.",
        tags: ['Invoices'],
        params: InvoiceParams,
        response: {
          200: Success(InvoiceRef, 'The invoice', RATE_LIMIT_HEADERS),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const invoice = await service.getInvoice(app.db, request.principal, request.params.invoice);
      return ok(
        request,
        'Invoice',
        toInvoice(invoice, app.config.publicBaseUrl, invoice.payments, invoice.refunds),
      );
    },
  );
};
