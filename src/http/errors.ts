/** The closed set of error codes of the contract (§2) and the one table from code to HTTP status. */
export const ERROR_STATUS = {
  API_KEY_REQUIRED: 401,
  API_KEY_INVALID_FORMAT: 401,
  API_KEY_INVALID: 401,
  API_KEY_REVOKED: 401,
  ACCOUNT_NOT_ACTIVE: 403,
  PROJECT_NOT_ACTIVE: 403,
  VALIDATION_ERROR: 422,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  RATE_LIMITED: 429,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export type ErrorLocation = 'body' | 'query' | 'path' | 'header';

export interface FieldError {
  in: ErrorLocation;
  field: string;
  rule: string;
  message: string;
}

/** The one error class: anything thrown as an ApiError reaches the client as its envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      details?: Record<string, unknown>;
      headers?: Record<string, string>;
      statusCode?: number;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = options.statusCode ?? ERROR_STATUS[code];
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  static validation(errors: FieldError[]): ApiError {
    const first = errors[0];
    const message =
      errors.length === 1 && first ? first.message : `The request has ${errors.length} invalid fields`;
    return new ApiError('VALIDATION_ERROR', message, { details: { errors } });
  }

  static notFound(message = 'No such resource'): ApiError {
    return new ApiError('NOT_FOUND', message);
  }
}
