import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderErrors, sendApiError } from '../http/error-handler.js';
import type { ApiError } from '../http/errors.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { negotiate, translator } from './i18n/i18n.js';
import { messagePage, payRoot } from './layout.js';
import { wantsJson } from './x402.js';

export type MessageKind = 'notFound' | 'rateLimited' | 'forbidden' | 'invalid' | 'error';

/** Sends one of the payer-facing message pages (404, 429…) with the page's look, in the payer's language. */
export function sendMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  kind: MessageKind,
  vars: Record<string, string> = {},
) {
  const query = request.query as Record<string, unknown> | undefined;
  const lang = typeof query?.lang === 'string' ? query.lang : undefined;
  const tr = translator(negotiate(request.headers['accept-language'], lang));
  setSecurityHeaders(reply);
  noStore(reply);
  return reply
    .code(status)
    .header('Content-Language', tr.lang)
    .type('text/html; charset=utf-8')
    .send(
      messagePage(
        payRoot(request.url),
        tr,
        tr.t(`message.${kind}.heading`),
        tr.t(`message.${kind}.text`, vars),
      ),
    );
}

/** The payer's 404 page; also for routing.ts, whose unroutable URLs (bad percent-encoding) skip our routes. */
export function sendPageNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendMessage(request, reply, 404, 'notFound');
}

/**
 * The payment page's renderer of the one classifier (http/error-handler.ts): a payer gets HTML, never
 * a JSON envelope, except from the /status route, which is JSON like the API.
 */
export function renderPayError(request: FastifyRequest, reply: FastifyReply, err: ApiError) {
  const url = request.routeOptions.url;
  // The page's script and x402 clients read JSON: the status, the signed transfers, x402's 402.
  if (url?.endsWith('/status') || url?.endsWith('/authorizations') || wantsJson(request)) {
    return sendApiError(request, reply, err);
  }
  reply.headers(err.headers);
  if (err.code === 'NOT_FOUND') return sendPageNotFound(request, reply);
  if (err.code === 'RATE_LIMITED') {
    const wait = reply.getHeader('Retry-After') ?? '60';
    return sendMessage(request, reply, 429, 'rateLimited', { seconds: String(wait) });
  }
  // Whatever else the payer's request got wrong, the page says only that the link is not valid.
  if (err.statusCode < 500) return sendMessage(request, reply, 422, 'invalid');
  return sendMessage(request, reply, err.statusCode, 'error');
}

export const htmlErrors = renderErrors(renderPayError);
