import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks (standardwebhooks.com), so that the `standardwebhooks` and `svix` libraries
 * verify our requests as they are. The secret is `whsec_` + base64 of random bytes, and the HMAC key
 * is those bytes (the base64-decoded secret), not the secret's text.
 */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; the body is signed byte for byte as sent. */
export function sign(secret: string, eventId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three headers of one attempt. The timestamp is the attempt's own, so a retry is not stale.
 * Several secrets (the current one and, for 24 h after a roll, the previous one) give several
 * signatures, space-separated, as Standard Webhooks specifies: a receiver with either secret verifies.
 */
export function signatureHeaders(
  secrets: string | readonly string[],
  eventId: string,
  at: Date,
  body: string,
) {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': [secrets]
      .flat()
      .map((secret) => sign(secret, eventId, timestamp, body))
      .join(' '),
  };
}
