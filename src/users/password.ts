import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (RFC 7914) from node:crypto: memory-hard, no native dependency.
 * N = 2^15, r = 8, p = 1 (OWASP's minimum is 2^17 at r = 8 for new systems with more memory to spare;
 * 2^15 costs ~32 MiB and ~60 ms here, which bounds what a burst of sign-ins can take from a small
 * server). The parameters are stored with each hash, so they can be raised later without a migration.
 */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
export const PASSWORD_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
let params: { N: number; r: number; p: number } = PASSWORD_PARAMS;

/**
 * For test suites only: new hashes at a lower cost N, so that a suite which signs in a few hundred
 * users spends no more than a few milliseconds on each (Django's test settings do the same with
 * their password hashers). Verifying always follows the cost stored in the hash.
 */
export function lowerPasswordCostForTests(N: number): void {
  params = { ...PASSWORD_PARAMS, N };
}

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...o, maxmem: 128 * o.N * o.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  }).catch(() => undefined); // parameters scrypt refuses
  return actual !== undefined && actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Spent when the email matches no user, so that a wrong email costs as long as a wrong password and
 * the timing does not tell which one was wrong.
 */
let dummy: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('paydesk-dummy-password');
  await verifyPassword(password, await dummy);
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = Array.from(password).length;
  if (length < MIN_PASSWORD_LENGTH)
    return `The password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (length > MAX_PASSWORD_LENGTH)
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long`;
  return undefined;
}
