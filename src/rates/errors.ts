import { ApiError } from '../http/errors.js';

export type Unavailable = 'no_fresh_rate' | 'sources_disagree' | 'implausible_jump';

/**
 * No fresh, agreeing rate (contract §19): the create answers 503 INTERNAL_SERVER_ERROR with
 * Retry-After, as for an unreachable database. An ApiError, so the one error handler renders it as it
 * is; the message says what to do, and nothing about which source failed (that is in the log and in
 * /v1/health).
 */
export class RateUnavailableError extends ApiError {
  constructor(
    readonly why: Unavailable,
    retryAfterSeconds: number,
  ) {
    super(
      'INTERNAL_SERVER_ERROR',
      'No current exchange rate is available for this currency; retry in a few seconds',
      { statusCode: 503, headers: { 'Retry-After': String(Math.max(1, retryAfterSeconds)) } },
    );
    this.name = 'RateUnavailableError';
  }
}
