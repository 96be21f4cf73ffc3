import { type TSchema, Type } from '@sinclair/typebox';
import type { IdPrefix } from '../ids.js';
import { ERROR_CODES } from './errors.js';

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'RFC 3339, UTC, milliseconds',
  examples: ['2026-11-21T10:04:05.123Z'],
});

export const TraceId = Type.String({
  pattern: '^[0-9a-f]{32}$',
  description: 'Quote it to support. Also sent as the X-Trace-Id header.',
});

/** A closed set of strings, shown as one `enum` (a union of literals reads poorly in the document). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A path parameter that is a public id (`inv_…`). A value that cannot be such an id is answered
 * NOT_FOUND with `notFound` before any query: the same body as for an id that does not exist, whatever
 * bytes the value holds (contract §4). The validator and the router read the two `x-` keywords.
 */
export function PathId(prefix: IdPrefix, notFound: string, description: string) {
  return Type.String({ description, 'x-id-prefix': prefix, 'x-not-found': notFound });
}

/** An optional field where `null` means "absent" (contract §4). */
export function nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<T['static'] | null>({ ...schema, type: [schema.type, 'null'] });
}

/** Response headers, documented in the OpenAPI document beside the body (the serializer ignores them). */
export type ResponseHeaders = Record<string, TSchema>;

export function Success<D extends TSchema>(data: D, description: string, headers?: ResponseHeaders) {
  return Type.Object(
    { success: Type.Literal(true), message: Type.String(), data, trace_id: TraceId },
    { description, ...(headers && { headers }) },
  );
}

export function SuccessWithMeta<D extends TSchema, M extends TSchema>(
  data: D,
  meta: M,
  description: string,
  headers?: ResponseHeaders,
) {
  return Type.Object(
    { success: Type.Literal(true), message: Type.String(), data, meta, trace_id: TraceId },
    { description, ...(headers && { headers }) },
  );
}

/** Sent on every response of a rate-limited route (contract §6). */
export const RATE_LIMIT_HEADERS: ResponseHeaders = {
  'RateLimit-Limit': Type.Integer({ minimum: 1, description: 'Requests allowed per window' }),
  'RateLimit-Remaining': Type.Integer({ minimum: 0, description: 'Requests left in this window' }),
  'RateLimit-Reset': Type.Integer({ minimum: 1, description: 'Seconds until the window resets' }),
};

export const FieldErrorSchema = Type.Object({
  in: StringEnum(['body', 'query', 'path', 'header']),
  field: Type.String({ description: 'The field at fault, dotted for nested ones (metadata.sku)' }),
  rule: Type.String({ description: 'A stable name for the violated rule', examples: ['unknown_field'] }),
  message: Type.String({ description: 'How to fix it, in one sentence' }),
});

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    error: Type.Object({
      code: StringEnum(ERROR_CODES),
      details: Type.Object(
        {
          errors: Type.Optional(Type.Array(FieldErrorSchema)),
          allowed: Type.Optional(Type.Array(Type.String())),
          retry_after_seconds: Type.Optional(Type.Integer()),
        },
        { description: 'Empty for most codes; see the contract for each' },
      ),
    }),
    trace_id: TraceId,
  },
  { $id: 'ErrorEnvelope', title: 'ErrorEnvelope' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  401: 'Authentication failed (API_KEY_REQUIRED, API_KEY_INVALID_FORMAT, API_KEY_INVALID, API_KEY_REVOKED)',
  403: 'The account or project is not active',
  404: 'No such resource (NOT_FOUND)',
  405: 'Method not allowed on this path (METHOD_NOT_ALLOWED)',
  422: 'The request is invalid (VALIDATION_ERROR); details.errors lists every violated rule',
  429: 'Too many requests (RATE_LIMITED)',
  500: 'Server failure (INTERNAL_SERVER_ERROR)',
  503: 'The database is unreachable (INTERNAL_SERVER_ERROR)',
};

const RetryAfter = Type.Integer({ minimum: 1, description: 'Seconds to wait before retrying' });

const ERROR_HEADERS: Record<number, ResponseHeaders> = {
  401: { 'WWW-Authenticate': Type.Literal('Bearer', { description: 'The authentication scheme expected' }) },
  405: {
    Allow: Type.String({
      description: 'The methods this path accepts, comma-separated',
      examples: ['GET, POST'],
    }),
  },
  429: { 'Retry-After': RetryAfter },
  503: { 'Retry-After': RetryAfter },
};

const ErrorRef = Type.Ref('ErrorEnvelope');

/** The error responses of a route, by status, for its schema (serialisation and the OpenAPI document). */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        ...ErrorRef,
        description: ERROR_DESCRIPTIONS[s] ?? 'Error',
        ...(ERROR_HEADERS[s] && { headers: ERROR_HEADERS[s] }),
      },
    ]),
  ) as Record<number, TSchema>;
}

/** The statuses every authenticated route can answer with. */
export const AUTHENTICATED_ERRORS = [401, 403, 404, 405, 422, 429, 500] as const;
