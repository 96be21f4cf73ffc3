import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GaslessDeps } from '../gasless/service.js';
import { encodeHeader, paymentRequired, settle } from '../gasless/x402.js';
import { errorBody, ok } from '../http/envelope.js';
import { ApiError } from '../http/errors.js';
import { noStore } from '../web/headers.js';
import { loadCheckout } from './service.js';

/**
 * A client that asks /pay/{id} for JSON (an agent, not a browser): x402 version 2 (contract §23).
 * Browsers send text/html first in Accept, so a page view never lands here.
 */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept);
}

/**
 * No PAYMENT-SIGNATURE: 402 with PAYMENT-REQUIRED while the invoice can be paid over x402, else 200
 * with its public status (paid, expired, or no gasless method: nothing to pay here). With one: settled
 * by Paydesk itself, 200 with the status and PAYMENT-RESPONSE; refused, 402 again with the reason in
 * PAYMENT-REQUIRED's `error` and the contract's error envelope as the body.
 */
export async function x402Page(
  app: FastifyInstance,
  gasless: GaslessDeps,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { id } = request.params as { id: string };
  const url = `${app.config.publicBaseUrl}/pay/${id}`;
  noStore(reply);
  reply.header('Vary', 'Accept, PAYMENT-SIGNATURE');
  const header = request.headers['payment-signature'];
  if (typeof header === 'string') {
    try {
      const s = await settle(gasless, id, header, app.clock());
      reply.header(
        'PAYMENT-RESPONSE',
        encodeHeader({ success: true, transaction: s.tx_hash, network: s.caip2, payer: s.payer }),
      );
      return reply.code(200).send(ok(request, 'Invoice status', await status(app, id)));
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') throw err;
      const required = await paymentRequired(gasless, id, url, app.clock(), err.message);
      if (required) reply.header('PAYMENT-REQUIRED', encodeHeader(required));
      return reply.code(402).send(errorBody(request, err.code, err.message, err.details));
    }
  }
  const required = await paymentRequired(gasless, id, url, app.clock());
  if (!required) return reply.code(200).send(ok(request, 'Invoice status', await status(app, id)));
  reply.header('PAYMENT-REQUIRED', encodeHeader(required));
  return reply.code(402).send(required);
}

async function status(app: FastifyInstance, id: string) {
  return (await loadCheckout(app.db, app.config.networks, id, app.clock())).status;
}
