import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { ApiError } from '../http/errors.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { negotiate, translator } from './i18n/i18n.js';
import { messagePage, payRoot } from './layout.js';

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
 * The error handler of the /pay pages: a payer gets HTML, never a JSON envelope. The /status route is
 * JSON like the API, so its errors go on to the application's handler (a throw in a child error handler
 * reaches the parent's).
 */
export function htmlErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (request.routeOptions.url?.endsWith('/status')) throw err;
  if (err instanceof ApiError) reply.headers(err.headers);
  const code = err instanceof ApiError ? err.code : undefined;
  if (code === 'NOT_FOUND') return sendPageNotFound(request, reply);
  if (code === 'RATE_LIMITED') {
    const wait = reply.getHeader('Retry-After') ?? '60';
    return sendMessage(request, reply, 429, 'rateLimited', { seconds: String(wait) });
  }
  const status = err instanceof ApiError ? err.statusCode : (err.statusCode ?? 500);
  if (status < 500) {
    return sendMessage(request, reply, 422, 'invalid');
  }
  const down = isDatabaseUnavailable(err);
  request.log.error({ err }, down ? 'database unavailable' : 'unhandled error');
  if (down) reply.header('Retry-After', '5');
  return sendMessage(request, reply, down ? 503 : 500, 'error');
}
