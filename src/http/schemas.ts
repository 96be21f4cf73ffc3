import { type TSchema, Type } from '@sinclair/typebox';
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

/** An optional field where `null` means "absent" (contract §4). */
export function nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<T['static'] | null>({ ...schema, type: [schema.type, 'null'] });
}

export function Success<D extends TSchema>(data: D, description: string) {
  return Type.Object(
    { success: Type.Literal(true), message: Type.String(), data, trace_id: TraceId },
    { description },
  );
}

export function SuccessWithMeta<D extends TSchema, M extends TSchema>(data: D, meta: M, description: string) {
  return Type.Object(
    { success: Type.Literal(true), message: Type.String(), data, meta, trace_id: TraceId },
    { description },
  );
}

export const FieldErrorSchema = Type.Object({
  in: Type.Union([Type.Literal('body'), Type.Literal('query'), Type.Literal('path'), Type.Literal('header')]),
  field: Type.String(),
  rule: Type.String(),
  message: Type.String(),
});

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    error: Type.Object({
      code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
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

const ErrorRef = Type.Ref('ErrorEnvelope');

/** The error responses of a route, by status, for its schema (serialisation and the OpenAPI document). */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [s, { ...ErrorRef, description: ERROR_DESCRIPTIONS[s] ?? 'Error' }]),
  ) as Record<number, TSchema>;
}

/** The statuses every authenticated route can answer with. */
export const AUTHENTICATED_ERRORS = [401, 403, 404, 405, 422, 429, 500] as const;
