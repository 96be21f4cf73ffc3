import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from './errors.js';

/** The success envelope of the specification (§2.3). */
export function ok<T>(request: FastifyRequest, message: string, data: T) {
  return { success: true as const, message, data, trace_id: request.id };
}

/** The success envelope with `meta` (pagination). */
export function okWithMeta<T, M>(request: FastifyRequest, message: string, data: T, meta: M) {
  return { success: true as const, message, data, meta, trace_id: request.id };
}

export function errorBody(request: FastifyRequest, code: ErrorCode, message: string, details: object = {}) {
  return { success: false as const, message, error: { code, details }, trace_id: request.id };
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  details: object = {},
) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBody(request, code, message, details));
}
