import { createHash } from 'node:crypto';
import type { RateLimitStore } from '../http/rate-limit.js';
import { rateLimitedError } from '../http/rate-limit.js';

/**
 * Failed sign-ins are limited per client address and per email (contract §13), in the shared store
 * (Redis when configured), so guessing is slow across every instance. Only failures count: a person
 * who signs in right is never held up. Checked before the password is, so a locked-out guess costs
 * no scrypt.
 */
export const PER_ADDRESS = { max: 20, windowMs: 15 * 60_000 };
export const PER_EMAIL = { max: 10, windowMs: 15 * 60_000 };

// The email is hashed for the store's key, so no address sits in Redis in clear.
const emailKey = (email: string) =>
  `dash-signin-email:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)}`;
const addressKey = (ip: string) => `dash-signin-ip:${ip}`;

export async function guardSignIn(store: RateLimitStore, ip: string, email: string, now: number) {
  const [byAddress, byEmail] = await Promise.all([
    store.peek(addressKey(ip), PER_ADDRESS.windowMs, now),
    store.peek(emailKey(email), PER_EMAIL.windowMs, now),
  ]);
  if (byAddress.count >= PER_ADDRESS.max) throw rateLimitedError(byAddress.resetMs);
  if (byEmail.count >= PER_EMAIL.max) throw rateLimitedError(byEmail.resetMs);
}

export async function recordSignInFailure(store: RateLimitStore, ip: string, email: string, now: number) {
  await Promise.all([
    store.hit(addressKey(ip), PER_ADDRESS.windowMs, now),
    store.hit(emailKey(email), PER_EMAIL.windowMs, now),
  ]);
}
