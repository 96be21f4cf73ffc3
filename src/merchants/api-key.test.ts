import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { generateApiKey, hashApiKey, KEY_PREFIX, maskApiKey, parseAuthorization } from './api-key.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Contract §3, restated: the prefix and 32 to 256 characters of [A-Za-z0-9]. */
const GRAMMAR = /^svc_secret_[A-Za-z0-9]{32,256}$/;

const base62 = (min: number, max: number) =>
  fc.array(fc.constantFrom(...BASE62), { minLength: min, maxLength: max }).map((c) => c.join(''));
const validKey = base62(32, 256).map((s) => KEY_PREFIX + s);

/** "Bearer" in any mix of cases. */
const scheme = fc
  .array(fc.boolean(), { minLength: 6, maxLength: 6 })
  .map((upper) => [...'bearer'].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** Key-like strings that break the grammar in the ways that matter: length, alphabet, prefix. */
const nearKey = fc
  .tuple(
    fc.constantFrom(KEY_PREFIX, 'svc_secret', 'SVC_SECRET_', 'svc_public_', 'sk_live_', ''),
    fc.oneof(base62(0, 300), fc.string({ minLength: 32, maxLength: 60 })),
  )
  .map(([p, s]) => p + s);

describe('parseAuthorization', () => {
  test('accepts "Bearer <key>" for every key of the grammar, whatever the case of the scheme', () => {
    fc.assert(
      fc.property(scheme, validKey, (s, key) => {
        expect(parseAuthorization(`${s} ${key}`)).toEqual({ kind: 'key', key });
      }),
    );
  });

  test('accepts a key exactly when it is of the grammar', () => {
    fc.assert(
      fc.property(fc.oneof(validKey, nearKey), (key) => {
        expect(parseAuthorization(`Bearer ${key}`).kind).toBe(GRAMMAR.test(key) ? 'key' : 'malformed');
      }),
      { numRuns: 1000 },
    );
  });

  test('only ever returns a key of the grammar, for any header at all, and never throws', () => {
    const header = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc
        .tuple(fc.string({ maxLength: 8 }), fc.oneof(validKey, nearKey), fc.string({ maxLength: 4 }))
        .map(([a, k, b]) => `${a}${k}${b}`),
      fc
        .tuple(scheme, fc.string({ maxLength: 3 }), fc.oneof(validKey, nearKey))
        .map(([s, sep, k]) => s + sep + k),
    );
    fc.assert(
      fc.property(header, (h) => {
        const parsed = parseAuthorization(h);
        if (parsed.kind === 'key') {
          expect(parsed.key).toMatch(GRAMMAR);
          expect(h.trim().toLowerCase().startsWith('bearer ')).toBe(true);
          expect(h.trim().endsWith(parsed.key)).toBe(true);
        }
        if (parsed.kind === 'missing') expect(h.trim()).toBe('');
      }),
      { numRuns: 2000 },
    );
  });

  test('an absent or blank header is missing, not malformed', () => {
    for (const h of [undefined, '', ' ', '\t ']) expect(parseAuthorization(h)).toEqual({ kind: 'missing' });
  });

  const key32 = KEY_PREFIX + 'a'.repeat(32);
  test.each([
    ['the scheme alone', 'Bearer'],
    ['another scheme', `Basic ${key32}`],
    ['no scheme', key32],
    ['no space after the scheme', `Bearer${key32}`],
    ['a tab for the space', `Bearer\t${key32}`],
    ['two keys', `Bearer ${key32} ${key32}`],
    ['31 characters after the prefix', `Bearer ${KEY_PREFIX}${'a'.repeat(31)}`],
    ['257 characters after the prefix', `Bearer ${KEY_PREFIX}${'a'.repeat(257)}`],
    ['an upper-case prefix', `Bearer SVC_SECRET_${'a'.repeat(32)}`],
    ['a non-ASCII letter', `Bearer ${KEY_PREFIX}${'a'.repeat(31)}é`],
    ['an underscore in the secret', `Bearer ${KEY_PREFIX}${'a'.repeat(31)}_`],
    ['the admin token shape', 'Bearer test-admin-token-0123456789'],
  ])('refuses %s as malformed', (_name, header) => {
    expect(parseAuthorization(header)).toEqual({ kind: 'malformed' });
  });

  test('accepts both ends of the length range', () => {
    for (const n of [32, 256]) {
      const key = KEY_PREFIX + 'Z9'.repeat(n / 2);
      expect(parseAuthorization(`Bearer ${key}`)).toEqual({ kind: 'key', key });
    }
  });
});

describe('generateApiKey', () => {
  const keys = Array.from({ length: 2000 }, generateApiKey);

  test('issues keys of the grammar that carry at least 190 random bits', () => {
    for (const key of keys) {
      expect(key).toMatch(GRAMMAR);
      const secret = key.slice(KEY_PREFIX.length);
      expect(secret.length).toBeGreaterThanOrEqual(40);
      expect(secret.length * Math.log2(62)).toBeGreaterThanOrEqual(190);
      expect(parseAuthorization(`Bearer ${key}`)).toEqual({ kind: 'key', key });
    }
  });

  test('never issues the same key twice', () => {
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('draws every character of the alphabet about equally often', () => {
    // 2000 keys give ~1290 draws per character; ±20 % is more than 7 standard deviations.
    const counts = new Map<string, number>();
    let total = 0;
    for (const key of keys) {
      for (const c of key.slice(KEY_PREFIX.length)) {
        counts.set(c, (counts.get(c) ?? 0) + 1);
        total++;
      }
    }
    expect(counts.size).toBe(62);
    const expected = total / 62;
    for (const n of counts.values()) {
      expect(n).toBeGreaterThan(expected * 0.8);
      expect(n).toBeLessThan(expected * 1.2);
    }
  });
});

describe('hashApiKey', () => {
  test('is the SHA-256 of the key: 32 bytes, deterministic, and different keys hash apart', () => {
    fc.assert(
      fc.property(validKey, validKey, (a, b) => {
        const h = hashApiKey(a);
        expect(h).toHaveLength(32);
        expect(h.equals(createHash('sha256').update(a).digest())).toBe(true);
        expect(hashApiKey(a).equals(h)).toBe(true);
        if (a !== b) expect(hashApiKey(b).equals(h)).toBe(false);
      }),
    );
  });
});

describe('maskApiKey', () => {
  test('shows the prefix and the last 4 characters, nothing more', () => {
    fc.assert(
      fc.property(validKey, (key) => {
        const masked = maskApiKey(key);
        expect(masked).toBe(`${KEY_PREFIX}…${key.slice(-4)}`);
        // Nothing of the secret but its last 4 characters survives.
        expect(masked.replace(KEY_PREFIX, '').replace('…', '')).toBe(key.slice(-4));
        expect(masked).not.toContain(key.slice(KEY_PREFIX.length, -4));
      }),
    );
  });
});
