import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ok } from '../http/envelope.js';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  PathId,
  RATE_LIMIT_HEADERS,
  Success,
} from '../http/schemas.js';
import { idempotencyKeyFormat } from '../invoices/idempotency.js';
import { mailQueueing } from '../mail/queueing.js';
import { listRefunds } from './browse.js';
import { createRefund } from './create.js';
import { NewRefundSchema, RefundSchema } from './refund.js';
import { requester } from './requester.js';

const CreateRefundHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      format: idempotencyKeyFormat.name,
      description:
        'Retrying with the same key answers the refund it made instead of making another (kept 24 h); a refund not claimed yet gets a new claim link, and the lost one stops working',
    }),
  ),
});

const InvoiceParams = Type.Object({
  invoice: PathId('inv', 'No invoice with this id', 'The invoice id, inv_…'),
});

const RefundRef = Type.Ref(RefundSchema);

const createSchema = {
  operationId: 'createRefund',
  summary: 'Refund a paid or failed invoice',
  description:
    "Creates a refund awaiting the payer's address; send an Idempotency-Key to retry safely. Send the payer its `claim_url` (shown only in this answer): they choose a method and give an address, the refund becomes `ready`, you send it from your own wallet, and Paydesk confirms it on chain. Refunds of an invoice never add up to more than its `amount_paid`; the invoice keeps its status.",
  tags: ['Refunds'],
  params: InvoiceParams,
  headers: CreateRefundHeaders,
  body: NewRefundSchema,
  response: {
    201: Success(
      Type.Object({ refund: RefundRef }),
      'The refund, with its claim link (the only time it is shown; a replay shows a new one)',
      {
        'Idempotent-Replayed': Type.Literal('true', {
          description: 'Sent only when an earlier request with the same Idempotency-Key made the refund',
        }),
        ...RATE_LIMIT_HEADERS,
      },
    ),
    ...errorResponses(...AUTHENTICATED_ERRORS),
  },
};

/** The merchant API's refunds of an invoice (contract §18). */
export const refundRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/invoices/:invoice/refunds', { schema: createSchema }, async (request, reply) => {
    const { refund, replayed } = await createRefund(
      app.db,
      requester(request.principal),
      request.params.invoice,
      request.body ?? {},
      {
        now: app.clock(),
        publicBaseUrl: app.config.publicBaseUrl,
        mail: mailQueueing(app.config.mail, app.secretKey),
      },
      request.headers['idempotency-key'],
    );
    reply.code(201);
    if (replayed) reply.header('Idempotent-Replayed', 'true');
    return ok(request, 'Refund created', { refund });
  });

  app.get(
    '/invoices/:invoice/refunds',
    {
      schema: {
        operationId: 'listRefunds',
        summary: "An invoice's refunds, oldest first",
        description: "An unknown invoice and another project's are both NOT_FOUND.",
        tags: ['Refunds'],
        params: InvoiceParams,
        response: {
          200: Success(Type.Array(RefundRef), 'The refunds', RATE_LIMIT_HEADERS),
          ...errorResponses(...AUTHENTICATED_ERRORS),
        },
      },
    },
    async (request) => {
      const refunds = await listRefunds(app.db, requester(request.principal), request.params.invoice);
      return ok(request, 'Refunds', refunds);
    },
  );
};
