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
import { cancelRefund, newClaimLink } from './actions.js';
import { RefundSchema } from './refund.js';
import { requester } from './requester.js';

const Params = Type.Object({
  invoice: PathId('inv', 'No refund with this id', 'The invoice id, inv_…'),
  refund: PathId('ref', 'No refund with this id', 'The refund id, ref_…'),
});

const Headers = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      format: idempotencyKeyFormat.name,
      description: 'Retrying with the same key answers what the first request did (kept 24 h)',
    }),
  ),
});

/** Neither action takes a body: none, or an empty object. */
const NoBody = Type.Optional(Type.Object({}, { additionalProperties: false }));

const answer = (description: string) => ({
  200: Success(Type.Object({ refund: Type.Ref(RefundSchema) }), description, {
    'Idempotent-Replayed': Type.Literal('true', {
      description: 'Sent only when an earlier request with the same Idempotency-Key did this',
    }),
    ...RATE_LIMIT_HEADERS,
  }),
  ...errorResponses(...AUTHENTICATED_ERRORS),
});

const common = { tags: ['Refunds'], params: Params, headers: Headers, body: NoBody };

const cancelSchema = {
  ...common,
  operationId: 'cancelRefund',
  summary: 'Cancel a refund',
  description:
    'Only a refund `awaiting_address` or `ready`: its claim link stops working and its amount can be refunded again. Once its transfer is seen (`sent`), or confirmed, VALIDATION_ERROR rule `not_cancelable`.',
  response: answer('The refund, canceled'),
};

const claimLinkSchema = {
  ...common,
  operationId: 'newRefundClaimLink',
  summary: 'Make a new claim link for a refund',
  description:
    'For a lost link, while the refund is `awaiting_address`: the answer shows a new `claim_url` (only there) and the old link stops working. Once the payer gave an address, VALIDATION_ERROR rule `not_awaiting_address`.',
  response: answer('The refund, with its new claim link'),
};

/** What a merchant does to a refund once made (contract §22): the dashboard calls the same functions. */
export const refundActionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/invoices/:invoice/refunds/:refund/cancel', { schema: cancelSchema }, async (request, reply) => {
    const { invoice, refund: refundId } = request.params;
    const key = request.headers['idempotency-key'];
    const who = requester(request.principal);
    const { refund, replayed } = await cancelRefund(
      app.db,
      who,
      { invoiceId: invoice, refundId },
      app.clock(),
      key,
    );
    if (replayed) reply.header('Idempotent-Replayed', 'true');
    return ok(request, 'Refund canceled', { refund });
  });

  app.post(
    '/invoices/:invoice/refunds/:refund/claim-link',
    { schema: claimLinkSchema },
    async (request, reply) => {
      const { invoice, refund: refundId } = request.params;
      const ctx = {
        now: app.clock(),
        publicBaseUrl: app.config.publicBaseUrl,
        mail: mailQueueing(app.config.mail, app.secretKey),
      };
      const who = requester(request.principal);
      const key = request.headers['idempotency-key'];
      const { refund, replayed } = await newClaimLink(
        app.db,
        who,
        { invoiceId: invoice, refundId },
        ctx,
        key,
      );
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return ok(request, 'New claim link', { refund });
    },
  );
};
