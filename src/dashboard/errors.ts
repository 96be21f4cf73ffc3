import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { ID_SHAPE } from '../http/validation.js';
import { noStore, setSecurityHeaders } from '../web/headers.js';
import { html } from '../web/html.js';
import { authPage, ROOT } from './layout.js';

/** No session (or an ended one): pages send the browser to sign in; JSON calls get the envelope. */
export function signInRequired(): ApiError {
  // Contract §2: every 401 carries WWW-Authenticate: Bearer, this one included.
  return new ApiError('API_KEY_REQUIRED', 'Sign in to the dashboard first', {
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
}

export function isJsonRoute(request: FastifyRequest): boolean {
  return request.url.startsWith(`${ROOT}/api/`);
}

function page(reply: FastifyReply, status: number, heading: string, messages: readonly string[]) {
  setSecurityHeaders(reply);
  noStore(reply);
  const body = html`<h1>${heading}</h1>
${messages.map((m) => html`<p>${m}</p>`)}
<div class="actions"><a class="button" href="${ROOT}">Back to the dashboard</a></div>`;
  return reply.code(status).type('text/html; charset=utf-8').send(authPage(heading, body));
}

/**
 * The dashboard pages' error handler: the contract's codes and statuses, shown as a page. JSON routes
 * (/dashboard/api) pass their errors on to the application's envelope handler.
 */
/** What a VALIDATION_ERROR says, one message per violated rule (its own message when it lists none). */
export function validationMessages(err: ApiError): string[] {
  const errors = (err.details.errors as FieldError[] | undefined) ?? [];
  return errors.length ? errors.map((e) => e.message) : [err.message];
}

export function dashboardErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (isJsonRoute(request)) throw err;
  if (err instanceof ApiError) {
    reply.headers(err.headers);
    if (err.code === 'API_KEY_REQUIRED') {
      if (request.method === 'GET') return reply.redirect(`${ROOT}/sign-in`, 303);
      return page(reply, 401, 'Please sign in again', ['Your session has ended. Sign in and try again.']);
    }
    if (err.code === 'VALIDATION_ERROR') {
      return page(reply, 422, 'That did not work', validationMessages(err));
    }
    if (err.code === 'NOT_FOUND') return page(reply, 404, 'Not found', [err.message]);
    if (err.code === 'RATE_LIMITED') return page(reply, 429, 'Too many attempts', [err.message]);
    return page(reply, err.statusCode, 'Not allowed', [err.message]);
  }
  if (err.validation) {
    // A path id that cannot be one (http/schemas.ts PathId) is the same NOT_FOUND as an unknown one.
    const idShape = err.validation.find((e) => e.keyword === ID_SHAPE);
    if (idShape) return page(reply, 404, 'Not found', [String(idShape.params.message)]);
    return page(reply, 422, 'That did not work', [err.message]);
  }
  if (err.statusCode && err.statusCode < 500) {
    return page(reply, 422, 'That did not work', ['The request could not be read.']);
  }
  const down = isDatabaseUnavailable(err);
  request.log.error({ err }, down ? 'database unavailable' : 'unhandled error');
  if (down) reply.header('Retry-After', '5');
  return page(reply, down ? 503 : 500, 'Something went wrong', [
    'This is a problem on our side. Please try again in a moment.',
  ]);
}
