import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  burnPasswordCheck,
  hashPassword,
  lowerPasswordCostForTests,
  PASSWORD_PARAMS,
  verifyPassword,
} from './password.js';

describe('password hashing (scrypt)', () => {
  test('a new hash carries the real cost, N = 2^15, r = 8, p = 1, a 16-byte salt and a 32-byte key', async () => {
    lowerPasswordCostForTests(PASSWORD_PARAMS.N);
    try {
      const hash = await hashPassword('correct horse battery staple');
      const [scheme, n, r, p, salt, key] = hash.split('$');
      expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
      expect(Buffer.from(salt as string, 'base64')).toHaveLength(16);
      expect(Buffer.from(key as string, 'base64')).toHaveLength(32);
      await expect(verifyPassword('correct horse battery staple', hash)).resolves.toBe(true);
      await expect(verifyPassword('correct horse battery stapl', hash)).resolves.toBe(false);
      // Two hashes of one password differ (a fresh salt each time).
      expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
    } finally {
      lowerPasswordCostForTests(2 ** 10);
    }
  });

  test('verifying follows the cost stored in the hash, so the cost can be raised without a migration', async () => {
    lowerPasswordCostForTests(2 ** 10);
    const cheap = await hashPassword('an older password');
    lowerPasswordCostForTests(2 ** 11);
    expect((await hashPassword('x')).split('$')[1]).toBe('2048');
    await expect(verifyPassword('an older password', cheap)).resolves.toBe(true);
    lowerPasswordCostForTests(2 ** 10);
  });

  test('any password verifies against its own hash and no other (NFKC-normalised)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        async (a, b) => {
          const hash = await hashPassword(a);
          expect(await verifyPassword(a, hash)).toBe(true);
          expect(await verifyPassword(b, hash)).toBe(a.normalize('NFKC') === b.normalize('NFKC'));
        },
      ),
      { numRuns: 25 },
    );
    // NFKC: a full-width letter is the letter.
    await expect(verifyPassword('Ａbc', await hashPassword('Abc'))).resolves.toBe(true);
  });

  test.each([
    ['', 'empty'],
    ['bcrypt$10$abc', 'another scheme'],
    ['scrypt$1024$8$1$$', 'no salt or key'],
    ['scrypt$1024$8$1$c2FsdA==', 'no key'],
    ['scrypt$abc$8$1$c2FsdA==$a2V5', 'a cost that is not a number'],
    ['scrypt$1000$8$1$c2FsdA==$a2V5', 'a cost that is not a power of two'],
  ])('a malformed stored hash never matches (%s: %s)', async (stored) => {
    await expect(verifyPassword('anything', stored)).resolves.toBe(false);
  });

  test('the check spent for an unknown email answers nothing and throws nothing', async () => {
    await expect(burnPasswordCheck('whatever')).resolves.toBeUndefined();
  });
});
