import { randomBytes, randomUUID } from 'node:crypto';
import { errorFromResponse, PaydeskConnectionError, type PaydeskError } from './errors.js';
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from './retry.js';
import type { RequestOptions } from './types.js';
import { VERSION } from './version.js';

export interface TransportSettings {
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
}

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  /** A path template of the generated `operations`, such as `/v1/merchant/invoices/{invoice}`. */
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string | undefined;
}

type Outcome =
  | { ok: true; body: unknown }
  | { ok: false; error: PaydeskError; retryable: boolean; retryAfterSeconds?: number | undefined };

const USER_AGENT = `paydesk-node/${VERSION} node/${process.version}`;

/**
 * One call: attempts until a success, an error not worth repeating, or the retries run out. Every
 * attempt carries the same trace id (a W3C traceparent, so Paydesk logs them all under it) and, for a
 * POST, the same idempotency key.
 */
export async function send<T>(
  settings: TransportSettings,
  call: Call,
  options: RequestOptions = {},
): Promise<T> {
  const maxRetries = options.maxRetries ?? settings.maxRetries;
  const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
  const traceId = randomBytes(16).toString('hex');
  const url = urlOf(settings.baseUrl, call);
  const headers = headersFor(settings, call);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);

  for (let retry = 0; ; retry++) {
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const init = { method: call.method, headers: { ...headers, traceparent }, body };
    const outcome = await attempt(url, init, traceId, timeoutMs);
    if (outcome.ok) return outcome.body as T;
    if (!outcome.retryable || retry >= maxRetries) throw withAttempts(outcome.error, retry + 1);
    const delay = retryDelayMs(retry + 1, outcome.retryAfterSeconds);
    if (delay === undefined) throw outcome.error;
    await settings.sleep(delay);
  }
}

// The contract's Idempotency-Key grammar; anything else could not even be sent as a header.
const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;

function headersFor(settings: TransportSettings, call: Call): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${settings.secretKey}`,
    accept: 'application/json',
    'user-agent': USER_AGENT,
  };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.method === 'POST') {
    const key = call.idempotencyKey ?? `paydesk-node-${randomUUID()}`;
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw new TypeError('idempotencyKey: expected 1 to 255 visible ASCII characters (no spaces)');
    }
    headers['idempotency-key'] = key;
  }
  return headers;
}

async function attempt(url: URL, init: RequestInit, traceId: string, timeoutMs: number): Promise<Outcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { ...init, signal: controller.signal });
    const text = await res.text();
    const json = parseJson(text);
    if (res.ok && (json as { success?: unknown } | undefined)?.success === true)
      return { ok: true, body: json };
    const details = (json as { error?: { details?: { retry_after_seconds?: number } } })?.error?.details;
    const retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after')) ?? details?.retry_after_seconds;
    const traceIdOf = res.headers.get('x-trace-id') ?? traceId;
    const error = errorFromResponse(res.status, json, traceIdOf, retryAfterSeconds);
    // A 2xx that is not an envelope (a proxy's page, say) is not worth asking again.
    return { ok: false, error, retryable: !res.ok && isRetryableStatus(res.status), retryAfterSeconds };
  } catch (cause) {
    const reason = controller.signal.aborted
      ? `no answer within ${timeoutMs} ms`
      : describeNetworkError(cause);
    const message = `Could not reach Paydesk at ${url.origin}: ${reason}`;
    const error = new PaydeskConnectionError({ message, code: 'CONNECTION_ERROR', traceId, cause });
    return { ok: false, error, retryable: true };
  } finally {
    clearTimeout(timer);
  }
}

function withAttempts(error: PaydeskError, attempts: number): PaydeskError {
  if (error instanceof PaydeskConnectionError && attempts > 1) {
    return new PaydeskConnectionError({
      message: `${error.message} (${attempts} attempts)`,
      code: error.code,
      traceId: error.traceId,
      cause: error.cause,
    });
  }
  return error;
}

// fetch rejects with "fetch failed"; what happened is in its cause (ECONNREFUSED, "other side closed" …).
function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { message?: unknown; code?: unknown } })?.cause;
  if (typeof cause?.message === 'string' && cause.message) return cause.message;
  if (typeof cause?.code === 'string') return cause.code;
  return err instanceof Error ? err.message : String(err);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function urlOf(baseUrl: string, call: Call): URL {
  const path = call.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(call.params?.[name] ?? ''),
  );
  const url = new URL(baseUrl + path);
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}
