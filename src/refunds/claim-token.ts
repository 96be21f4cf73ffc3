import { createHash } from 'node:crypto';
import { randomBase62 } from '../ids.js';

/**
 * The claim link's token: 43 characters of [A-Za-z0-9], about 256 random bits, so it cannot be
 * guessed. Only its SHA-256 is stored (a stolen database holds no working link); a fast hash is
 * enough for a random value of this size, as for API keys.
 */
export function newClaimToken(): { token: string; hash: string } {
  const token = randomBase62(43);
  return { token, hash: hashClaimToken(token) };
}

export function hashClaimToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Anything that cannot be a token is answered like an unknown one, before any query. */
export const looksLikeClaimToken = (value: string) => /^[A-Za-z0-9]{43}$/.test(value);
