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

declare module 'fastify' {
  interface FastifyInstance {
    /** The one error classifier (registerErrorHandler), for the surfaces' own renderers. */
    classifyError(err: FastifyError, request: FastifyRequest): ApiError;
  }
}

/** Shows a classified error to the caller: as the JSON envelope, the payment page or a dashboard page. */
export type ErrorRenderer = (request: FastifyRequest, reply: FastifyReply, err: ApiError) => unknown;

/**
 * One classifier, three tiers (as unkey does): our own ApiErrors stand as they are; framework errors
 * (validation, bad JSON, body too large) are mapped onto our codes; anything else is logged with its
 * stack and becomes a bare INTERNAL_SERVER_ERROR that says nothing about the inside: a 503 with
 * Retry-After when the database cannot be reached (the caller should come back), else a 500.
 */
export function classifyError(err: FastifyError, request: FastifyRequest, validation: Validation): ApiError {
  if (err instanceof ApiError) return err;
  const mapped = fromFramework(err, request, validation);
  if (mapped) return mapped;
  if (isDatabaseUnavailable(err)) {
    request.log.error({ err }, 'database unavailable');
    return new ApiError('INTERNAL_SERVER_ERROR', 'The service is temporarily unavailable', {
      statusCode: 503,
      headers: { 'Retry-After': '5' },
    });
  }
  request.log.error({ err }, 'unhandled error');
  return new ApiError('INTERNAL_SERVER_ERROR', 'Something went wrong on our side');
}

/** An error handler that classifies, then renders; a scope (the payment page, the dashboard) sets its own. */
export function renderErrors(render: ErrorRenderer) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
    render(request, reply, request.server.classifyError(err, request));
}

/** The classifier for every scope, and the JSON envelope as the application's renderer. */
export function registerErrorHandler(app: FastifyInstance, validation: Validation): void {
  app.decorate('classifyError', (err: FastifyError, request: FastifyRequest) =>
    classifyError(err, request, validation),
  );
  app.setErrorHandler(renderErrors(sendApiError));
}

/** The JSON renderer: the contract's error envelope, with the error's own headers. */
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
