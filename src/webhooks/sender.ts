import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { resolveTarget, type Target, UrlRefused } from './address.js';

export interface SendResult {
  /** The response's status, or null when none came within the time allowed. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, for the delivery log: never a URL, header or secret. */
  error: string | null;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

const MAX_ERROR_LENGTH = 300;

/**
 * One POST. The host is resolved and checked again here (DNS may have changed since the endpoint was
 * registered) and the connection is pinned to the address that passed, so a second, different DNS
 * answer (rebinding) cannot slip in between the check and the connect. Redirects are never followed.
 */
export async function send(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // One controller per attempt, aborted by the deadline or by shutdown. (AbortSignal.any would tie
  // every attempt to the long-lived shutdown signal.)
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onShutdown = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', onShutdown, { once: true });
  try {
    const target = await abortable(resolveTarget(rawUrl, options.allowPrivate), controller.signal);
    const status = await post(target, headers, body, controller.signal);
    const error =
      status >= 300 && status < 400 ? 'Redirect not followed: the URL must answer with 2xx' : null;
    return { status, durationMs: elapsed(), error };
  } catch (err) {
    const error = timedOut
      ? `No response within ${options.timeoutMs} ms`
      : describe(err, options.allowPrivate);
    return { status: null, durationMs: elapsed(), error };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onShutdown);
  }
}

function post(target: Target, headers: Record<string, string>, body: string, signal: AbortSignal) {
  const pinned: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(target.url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: pinned,
      // A fresh connection per attempt: a pooled socket would skip the lookup, and so the pinning.
      agent: false,
      signal,
    });
    req.on('response', (res) => {
      // Only the status matters; the body is not read, so a receiver cannot stall us by streaming one.
      res.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * What an operator reads in the log and the delivery log. An endpoint registered while private
 * addresses were allowed fails on every attempt once they no longer are (a restart without the
 * setting): the reason names the setting, rather than repeating registration's rule.
 */
const REFUSED_AT_SEND: Record<string, (allowPrivate: boolean) => string> = {
  private_address: () =>
    'Private address refused: set PAYDESK_WEBHOOK_ALLOW_PRIVATE=true for local receivers',
  https_required: (allowPrivate) =>
    allowPrivate
      ? 'Plain http refused: a public receiver must use https://'
      : 'Plain http refused: use https://, or set PAYDESK_WEBHOOK_ALLOW_PRIVATE=true for local receivers',
};

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'Connection refused: nothing listens at that address and port',
  ECONNRESET: 'Connection reset by the receiver',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
};

function describe(err: unknown, allowPrivate: boolean): string {
  if (err instanceof UrlRefused) {
    return REFUSED_AT_SEND[err.rule]?.(allowPrivate) ?? `Refused: ${err.message}`;
  }
  const e = err as { code?: unknown; message?: unknown };
  const text = typeof e?.message === 'string' ? e.message : String(err);
  const known = typeof e?.code === 'string' ? NETWORK_ERRORS[e.code] : undefined;
  if (known) return `${known} (${text})`.slice(0, MAX_ERROR_LENGTH);
  const code = typeof e?.code === 'string' && !text.includes(e.code) ? `${e.code}: ` : '';
  return `${code}${text}`.slice(0, MAX_ERROR_LENGTH);
}
