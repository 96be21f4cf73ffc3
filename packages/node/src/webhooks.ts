import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './events.js';

/** Headers as Node's IncomingMessage has them, or a fetch `Headers` object. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>;

export interface VerifyOptions {
  /** How far the signing time may be from this server's clock, either way. Default: 300 s. */
  toleranceSeconds?: number;
  /** When the request arrived. Default: now. */
  receivedAt?: Date;
}

export type SignatureFailure =
  | 'invalid_secret'
  | 'invalid_body'
  | 'missing_header'
  | 'invalid_timestamp'
  | 'no_matching_signature'
  | 'timestamp_out_of_tolerance';

/** A delivery that cannot be trusted; `reason` says which check failed, the message what to fix. */
export class PaydeskSignatureVerificationError extends Error {
  readonly reason: SignatureFailure;

  constructor(reason: SignatureFailure, message: string) {
    super(message);
    this.name = 'PaydeskSignatureVerificationError';
    this.reason = reason;
  }
}

export const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';
const fail = (reason: SignatureFailure, message: string) =>
  new PaydeskSignatureVerificationError(reason, message);

/** `paydesk.webhooks`: checks that a delivery comes from Paydesk, unchanged and recent. */
export class Webhooks {
  /**
   * Verifies a Standard Webhooks signature (HMAC-SHA256 of `id.timestamp.body`) and the timestamp,
   * then returns the event. Pass the body exactly as received, before any JSON parsing.
   */
  verify(
    rawBody: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string,
    options: VerifyOptions = {},
  ): WebhookEvent {
    const key = secretKey(secret);
    const body = bodyBytes(rawBody);
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!/^\d{1,12}$/.test(timestamp)) {
      throw fail(
        'invalid_timestamp',
        `The webhook-timestamp header must be Unix seconds; got "${timestamp.slice(0, 20)}".`,
      );
    }
    // The signature first: until it matches, neither the timestamp nor the body can be trusted.
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
    if (!signatures.split(' ').some((s) => matches(s, expected))) {
      throw fail(
        'no_matching_signature',
        'No signature matches this body and secret. Pass the raw request body exactly as received ' +
          '(before any JSON parsing: re-serialised JSON has other bytes), and the signing secret of the ' +
          'endpoint that received it (whsec_…, shown when the endpoint was created; after a secret roll, the new one).',
      );
    }
    const receivedAt = (options.receivedAt ?? new Date()).getTime() / 1000;
    checkTolerance(receivedAt - Number(timestamp), options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS);
    return parseEvent(body);
  }
}

function secretKey(secret: unknown): Buffer {
  if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX)) {
    const given =
      typeof secret === 'string' && secret.startsWith('svc_secret_') ? 'That is your API key. ' : '';
    throw fail(
      'invalid_secret',
      `${given}The webhook secret is the endpoint's signing secret, whsec_ followed by base64 ` +
        '(shown once when the endpoint was created).',
    );
  }
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw fail('invalid_secret', 'The webhook secret has nothing after whsec_.');
  return key;
}

function bodyBytes(rawBody: unknown): Buffer {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array)
    return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  throw fail(
    'invalid_body',
    `Pass the raw request body (a string or Buffer) exactly as received, not ${rawBody === null ? 'null' : typeof rawBody}: ` +
      "the signature covers the bytes. In Fastify, parse application/json with parseAs: 'buffer' for this " +
      "route; in Express, use express.raw({ type: 'application/json' }).",
  );
}

function header(headers: WebhookHeaders, name: string): string {
  const raw =
    typeof headers?.get === 'function'
      ? (headers.get as (n: string) => string | null)(name)
      : (headers as Record<string, string | readonly string[] | undefined>)?.[name];
  const value = Array.isArray(raw) ? raw.join(' ') : raw;
  if (typeof value !== 'string' || value === '') {
    throw fail(
      'missing_header',
      `The ${name} header is missing. Pass the request's headers as received: Paydesk signs every ` +
        'delivery with webhook-id, webhook-timestamp and webhook-signature.',
    );
  }
  return value;
}

/** One `v1,<base64>` entry of the header, compared in constant time; other versions are skipped. */
function matches(entry: string, expected: Buffer): boolean {
  const [version, signature] = entry.split(',', 2);
  if (version !== 'v1' || !signature) return false;
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `age`: seconds from signing to receipt; negative when signed "in the future" by a clock ahead. */
function checkTolerance(age: number, toleranceSeconds: number): void {
  const skew = Math.round(age);
  if (Math.abs(skew) <= toleranceSeconds) return;
  const when = skew > 0 ? `${skew} s ago` : `${-skew} s in the future`;
  const why =
    skew > 0
      ? 'an old delivery replayed, or a clock that is wrong here or on the Paydesk server'
      : 'a clock that is wrong here or on the Paydesk server';
  throw fail(
    'timestamp_out_of_tolerance',
    `The webhook was signed ${when}, outside the ${toleranceSeconds} s allowed: ${why}. Check that both keep time (NTP).`,
  );
}

function parseEvent(body: Buffer): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw fail('invalid_body', 'The body is signed but is not JSON.');
  }
  const e = event as Partial<WebhookEvent> | null;
  if (!e || typeof e.id !== 'string' || typeof e.type !== 'string' || typeof e.data !== 'object') {
    throw fail('invalid_body', 'The body is signed but is not a Paydesk event (id, type, data).');
  }
  return event as WebhookEvent;
}
