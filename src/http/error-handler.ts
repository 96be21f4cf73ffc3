import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/errors.js';
import { sendError } from './envelope.js';
import { ApiError, type FieldError } from './errors.js';
import { ID_SHAPE, type Validation } from './validation.js';

const BODY_ERRORS: Record<string, Omit<FieldError, 'in' | 'field'>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { rule: 'invalid_json', message: 'The body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { rule: 'invalid_json', message: 'The body is empty; send a JSON object' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    rule: 'content_type',
    message: 'The body must be JSON: send Content-Type: application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    rule: 'content_length',
    message: 'Content-Length does not match the body',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { rule: 'too_large', message: 'The body is larger than 64 KiB' },
};

/**
 * Three tiers (as unkey does): our own ApiErrors become their envelope; framework errors (validation,
 * bad JSON, body too large) are mapped onto our codes; anything else is logged with its stack and
 * answered with a bare INTERNAL_SERVER_ERROR that says nothing about the inside.
 */
export function registerErrorHandler(app: FastifyInstance, validation: Validation): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) return sendApiError(request, reply, err);
    const mapped = fromFramework(err, request, validation);
    if (mapped) return sendApiError(request, reply, mapped);
    if (isDatabaseUnavailable(err)) {
      request.log.error({ err }, 'database unavailable');
      reply.header('Retry-After', '5');
      return sendError(
        request,
        reply,
        503,
        'INTERNAL_SERVER_ERROR',
        'The service is temporarily unavailable',
      );
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(request, reply, 500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on our side');
  });
}

export function sendApiError(request: FastifyRequest, reply: FastifyReply, err: ApiError) {
  reply.headers(err.headers);
  return sendError(request, reply, err.statusCode, err.code, err.message, err.details);
}

function fromFramework(
  err: FastifyError,
  request: FastifyRequest,
  validation: Validation,
): ApiError | undefined {
  if (err.validation) {
    const context = err.validationContext ?? 'body';
    const idShape = (err.validation as unknown as ErrorObject[]).find((e) => e.keyword === ID_SHAPE);
    if (idShape) return ApiError.notFound(String(idShape.params.message));
    const input = {
      body: request.body,
      querystring: request.query,
      params: request.params,
      headers: request.headers,
    }[context];
    return ApiError.validation(
      validation.fieldErrors(context, err.validation as unknown as ErrorObject[], input),
    );
  }
  const known = err.code ? BODY_ERRORS[err.code] : undefined;
  if (known) return ApiError.validation([{ in: 'body', field: 'body', ...known }]);
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return ApiError.validation([
      { in: 'body', field: 'body', rule: 'invalid_request', message: 'The request is malformed' },
    ]);
  }
  return undefined;
}
