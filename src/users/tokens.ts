import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: the invite and session tokens. Only their SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Tokens have one shape; anything else is refused before a lookup. */
export function hasTokenShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
