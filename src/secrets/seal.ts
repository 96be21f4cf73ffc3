import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretKey } from './key.js';

const PREFIX = 'sealed:v1:';

export class SealError extends Error {}

/**
 * A secret sealed for the database: AES-256-GCM with a fresh 96-bit nonce, as
 * `sealed:v1:<key id>:<base64url(nonce | tag | ciphertext)>`. `context` (the row it belongs to) is
 * authenticated with it, so a sealed value copied onto another row does not open there.
 */
export function seal(key: SecretKey, plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${key.id}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** The plain secret; a SealError names the problem (another key, a damaged value), never the secret. */
export function unseal(key: SecretKey, value: string, context: string): string {
  const [keyId, data] = value.slice(PREFIX.length).split(':');
  if (!isSealed(value) || !keyId || !data) throw new SealError('The value is not a sealed secret');
  if (keyId !== key.id) {
    throw new SealError(
      `A secret was sealed with another key (id ${keyId}; this instance's is ${key.id}): ` +
        'give every instance the same PAYDESK_ENCRYPTION_KEY',
    );
  }
  const raw = Buffer.from(data, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealError('A sealed secret does not open: it was changed, or belongs to another row');
  }
}
