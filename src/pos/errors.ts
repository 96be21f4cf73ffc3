import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiate, translator } from '../checkout/i18n/i18n.js';
import { renderErrors, sendApiError } from '../http/error-handler.js';
import type { ApiError } from '../http/errors.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { posRoot, tillMessage } from './layout.js';

type Kind = 'notFound' | 'rateLimited' | 'forbidden' | 'invalid' | 'error';

/** One of the till's message pages, in the till's language, with a way back to the till when it has one. */
export function sendPosMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  kind: Kind,
  vars: Record<string, string> = {},
) {
  const query = request.query as Record<string, unknown> | undefined;
  const tr = translator(
    negotiate(request.headers['accept-language'], typeof query?.lang === 'string' ? query.lang : undefined),
  );
  const root = posRoot(request.url);
  const id = (request.params as { id?: unknown } | undefined)?.id;
  const back = kind === 'invalid' && typeof id === 'string' ? `${root}${id}?lang=${tr.lang}` : undefined;
  const heading = kind === 'notFound' ? tr.t('pos.notFound.heading') : tr.t(`message.${kind}.heading`);
  const text =
    kind === 'notFound'
      ? tr.t('pos.notFound.text')
      : kind === 'invalid'
        ? tr.t('pos.invalid.text')
        : tr.t(`message.${kind}.text`, vars);
  setSecurityHeaders(reply);
  noStore(reply);
  return reply
    .code(status)
    .header('Content-Language', tr.lang)
    .type('text/html; charset=utf-8')
    .send(tillMessage(root, tr, heading, text, back));
}

/** The till's errors are pages for people; the quote (read by pos.js) answers in the JSON envelope. */
function renderPosError(request: FastifyRequest, reply: FastifyReply, err: ApiError) {
  reply.headers(err.headers);
  if (request.routeOptions.url?.endsWith('/quote')) {
    return sendApiError(request, reply, err);
  }
  if (err.code === 'NOT_FOUND') return sendPosMessage(request, reply, 404, 'notFound');
  if (err.code === 'RATE_LIMITED') {
    return sendPosMessage(request, reply, 429, 'rateLimited', {
      seconds: String(reply.getHeader('Retry-After') ?? '60'),
    });
  }
  if (err.statusCode < 500) return sendPosMessage(request, reply, 422, 'invalid');
  return sendPosMessage(request, reply, err.statusCode, 'error');
}

export const posErrors = renderErrors(renderPosError);
