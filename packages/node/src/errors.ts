import type { ErrorEnvelope } from './generated/openapi.js';

/** The server's error codes (contract §2). */
export type ApiErrorCode = ErrorEnvelope['error']['code'];
/** One violated rule of a VALIDATION_ERROR. */
export type FieldError = NonNullable<ErrorEnvelope['error']['details']['errors']>[number];
/** The server's codes, and the client's own: no answer came, or an answer that is not Paydesk's. */
export type PaydeskErrorCode = ApiErrorCode | 'CONNECTION_ERROR' | 'INVALID_RESPONSE';

export interface PaydeskErrorInit {
  message: string;
  code: PaydeskErrorCode;
  /** The HTTP status; undefined when no answer came. */
  statusCode?: number | undefined;
  traceId?: string | undefined;
  details?: Record<string, unknown> | undefined;
  cause?: unknown;
}

/** Every error of a call to Paydesk. `traceId` is what Paydesk logged the request under: quote it to support. */
export class PaydeskError extends Error {
  readonly code: PaydeskErrorCode;
  readonly statusCode: number | undefined;
  readonly traceId: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(init: PaydeskErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.statusCode = init.statusCode;
    this.traceId = init.traceId;
    this.details = init.details ?? {};
  }
}

/** 401: no key, a malformed, unknown or revoked key (API_KEY_*). */
export class PaydeskAuthenticationError extends PaydeskError {}

/** 403: the key is good but its account or project is not active. */
export class PaydeskPermissionError extends PaydeskError {}

/** 404: no such invoice for this project. */
export class PaydeskNotFoundError extends PaydeskError {}

/** 422: the request broke the rules listed in `errors`, every one of them. */
export class PaydeskValidationError extends PaydeskError {
  readonly errors: FieldError[];

  constructor(init: PaydeskErrorInit) {
    const errors = (init.details?.errors ?? []) as FieldError[];
    const list = errors.map((e) => `${e.in} ${e.field}: ${e.message}`).join('; ');
    const message = errors.length > 1 ? `${init.message} (${list})` : init.message;
    super({ ...init, message });
    this.errors = errors;
  }
}

/** 429: too many requests; `retryAfterSeconds` says when the next one will be accepted. */
export class PaydeskRateLimitError extends PaydeskError {
  readonly retryAfterSeconds: number | undefined;

  constructor(init: PaydeskErrorInit & { retryAfterSeconds?: number | undefined }) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** 5xx, or any answer the client did not expect (INVALID_RESPONSE: not Paydesk's JSON envelope). */
export class PaydeskAPIError extends PaydeskError {}

/** No answer: the connection failed, was dropped or timed out (CONNECTION_ERROR). */
export class PaydeskConnectionError extends PaydeskError {}

const CLASS_BY_CODE: Partial<Record<string, new (init: PaydeskErrorInit) => PaydeskError>> = {
  API_KEY_REQUIRED: PaydeskAuthenticationError,
  API_KEY_INVALID_FORMAT: PaydeskAuthenticationError,
  API_KEY_INVALID: PaydeskAuthenticationError,
  API_KEY_REVOKED: PaydeskAuthenticationError,
  ACCOUNT_NOT_ACTIVE: PaydeskPermissionError,
  PROJECT_NOT_ACTIVE: PaydeskPermissionError,
  VALIDATION_ERROR: PaydeskValidationError,
  NOT_FOUND: PaydeskNotFoundError,
};

/** The typed error for an error envelope; anything else that is not a success is INVALID_RESPONSE. */
export function errorFromResponse(
  statusCode: number,
  body: unknown,
  traceId: string,
  retryAfterSeconds: number | undefined,
): PaydeskError {
  const envelope = body as Partial<ErrorEnvelope> | undefined;
  const code = envelope?.error?.code;
  if (envelope?.success !== false || typeof code !== 'string') {
    return new PaydeskAPIError({
      message: `Paydesk answered ${statusCode} without its JSON envelope: is baseUrl the address of a Paydesk server?`,
      code: 'INVALID_RESPONSE',
      statusCode,
      traceId,
    });
  }
  const init: PaydeskErrorInit = {
    message: typeof envelope.message === 'string' ? envelope.message : code,
    code,
    statusCode,
    traceId: envelope.trace_id ?? traceId,
    details: envelope.error?.details ?? {},
  };
  if (code === 'RATE_LIMITED') return new PaydeskRateLimitError({ ...init, retryAfterSeconds });
  const ErrorClass = CLASS_BY_CODE[code] ?? PaydeskAPIError;
  return new ErrorClass(init);
}
