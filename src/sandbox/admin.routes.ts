import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ok } from '../http/envelope.js';
import { errorResponses, PathId, StringEnum, Success } from '../http/schemas.js';
import { explainedFormat } from '../http/validation.js';
import { toInvoice } from '../invoices/invoice.js';
import { parsePaymentAmount } from '../money/money.js';
import { CURRENCIES } from '../networks/network.js';
import { simulatePayment, simulateReversal } from './service.js';

/** What one simulated payment may carry: up to 18 decimals, as a chain transfer may. */
export const paymentAmountFormat = explainedFormat('payment-amount', parsePaymentAmount);

const TxHash = Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' });
const Params = Type.Object({ id: PathId('inv', 'No invoice with this id', 'The invoice id, inv_…') });
const InvoiceRef = Type.Ref('Invoice');
const tags = ['Sandbox'];

/** Hand-made payments for invoices on the `sandbox` network (contract §11), under /v1/admin (see app.ts). */
export const sandboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/invoices/:id/simulate-payment',
    {
      schema: {
        operationId: 'adminSimulatePayment',
        summary: 'Pay a sandbox invoice by hand',
        description: 'Goes through the same code path as a payment found on a chain.',
        tags,
        params: Params,
        body: Type.Object(
          {
            amount: Type.Optional(
              Type.String({
                format: paymentAmountFormat.name,
                description: 'Default: what is still due',
                examples: ['10.50'],
              }),
            ),
            confirmed: Type.Optional(Type.Boolean({ default: true })),
            tx_hash: Type.Optional(TxHash),
            currency: Type.Optional(
              StringEnum(CURRENCIES, {
                description:
                  "The sandbox token paid; default: the invoice's first sandbox method's. A token the invoice does not accept is recorded as an `unaccepted` payment (event invoice.payment_unaccepted), as on a chain",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Success(InvoiceRef, 'The invoice after the payment'),
          ...errorResponses(401, 404, 405, 422, 429, 500),
        },
      },
    },
    async (request) => {
      const invoice = await simulatePayment(app.db, request.params.id, request.body ?? {}, {
        now: app.clock(),
        publicBaseUrl: app.config.publicBaseUrl,
      });
      return ok(
        request,
        'Payment simulated',
        toInvoice(invoice, app.config.publicBaseUrl, invoice.payments, invoice.refunds),
      );
    },
  );

  app.post(
    '/invoices/:id/simulate-reversal',
    {
      schema: {
        operationId: 'adminSimulateReversal',
        summary: 'Drop a simulated payment, as a chain reorganisation would',
        tags,
        params: Params,
        body: Type.Object({ tx_hash: TxHash }, { additionalProperties: false }),
        response: {
          200: Success(InvoiceRef, 'The invoice after the reversal'),
          ...errorResponses(401, 404, 405, 422, 429, 500),
        },
      },
    },
    async (request) => {
      const invoice = await simulateReversal(app.db, request.params.id, request.body.tx_hash, {
        now: app.clock(),
        publicBaseUrl: app.config.publicBaseUrl,
      });
      return ok(
        request,
        'Payment reversed',
        toInvoice(invoice, app.config.publicBaseUrl, invoice.payments, invoice.refunds),
      );
    },
  );
};
