import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isPublicAddress, parseWebhookUrl, UrlRefused } from './address.js';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = (a: fc.Arbitrary<number>, b: fc.Arbitrary<number> = octet) =>
  fc.tuple(a, b, octet, octet).map((parts) => parts.join('.'));

/** IPv4 ranges that must never be reachable, as [first octet, second octet range]. */
const privateV4 = fc.oneof(
  ipv4(fc.constant(10)),
  ipv4(fc.constant(127)),
  ipv4(fc.constant(0)),
  ipv4(fc.constant(172), fc.integer({ min: 16, max: 31 })),
  ipv4(fc.constant(192), fc.constant(168)),
  ipv4(fc.constant(169), fc.constant(254)),
  ipv4(fc.constant(100), fc.integer({ min: 64, max: 127 })),
  ipv4(fc.integer({ min: 224, max: 255 })),
);

const toMapped = (v4: string) => `::ffff:${v4}`;
const toHexMapped = (v4: string) => {
  const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
  return `::ffff:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
};

describe('isPublicAddress', () => {
  test('private, loopback, link-local, CGNAT and reserved IPv4 are never public, in any IPv6 disguise', () => {
    fc.assert(
      fc.property(privateV4, (v4) => {
        expect(isPublicAddress(v4)).toBe(false);
        expect(isPublicAddress(toMapped(v4))).toBe(false);
        expect(isPublicAddress(toHexMapped(v4))).toBe(false);
        expect(isPublicAddress(`64:ff9b::${v4}`)).toBe(false);
      }),
    );
  });

  test('ordinary unicast IPv4 is public, mapped or not', () => {
    fc.assert(
      fc.property(ipv4(fc.integer({ min: 11, max: 99 })), (v4) => {
        expect(isPublicAddress(v4)).toBe(true);
        expect(isPublicAddress(toHexMapped(v4))).toBe(true);
      }),
    );
  });

  test.each([
    ['::1', false],
    ['::', false],
    ['fc00::1', false],
    ['fdff:ffff::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['2001:db8::1', false],
    ['2002:7f00:1::', false],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4001:80b::200e', true],
    ['not-an-ip', false],
  ])('%s → public: %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('parseWebhookUrl', () => {
  test('anything that is not a URL is refused with a reason, never a crash', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        try {
          const url = parseWebhookUrl(raw, false);
          expect(url.protocol).toBe('https:');
        } catch (err) {
          expect(err).toBeInstanceOf(UrlRefused);
        }
      }),
    );
  });

  test('http is only for local development', () => {
    expect(() => parseWebhookUrl('http://127.0.0.1/', false)).toThrow(UrlRefused);
    expect(parseWebhookUrl('http://127.0.0.1/', true).hostname).toBe('127.0.0.1');
  });
});
