import fc from 'fast-check';
import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import {
  fastifyTrustProxy,
  isAddressOrRange,
  MAX_HOPS,
  parseTrustProxy,
  TrustProxyError,
} from './trust-proxy.js';

const ipv4 = fc.ipV4();
const ipv6 = fc.ipV6();
const cidr4 = fc.tuple(ipv4, fc.integer({ min: 1, max: 32 })).map(([a, p]) => `${a}/${p}`);
const cidr6 = fc.tuple(ipv6, fc.integer({ min: 1, max: 128 })).map(([a, p]) => `${a}/${p}`);
const entry = fc.oneof(ipv4, ipv6, cidr4, cidr6);

/** What Fastify makes of the value at start-up: it must never throw there, after config said yes. */
function fastifyAccepts(value: ReturnType<typeof parseTrustProxy>): boolean {
  const app = Fastify({ trustProxy: fastifyTrustProxy(value) });
  void app.close();
  return true;
}

describe('PAYDESK_TRUST_PROXY parser', () => {
  test('unset, empty and 0 trust nobody', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('  ')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
  });

  test('a number of hops from 1 to MAX_HOPS is that number', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: MAX_HOPS }), (n) => parseTrustProxy(String(n)) === n));
  });

  test('more hops than MAX_HOPS is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_HOPS + 1, max: 999 }), (n) => {
        expect(() => parseTrustProxy(String(n))).toThrow(TrustProxyError);
      }),
    );
  });

  test('any comma list of addresses and CIDR ranges, spaced or not, is that list', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(',', ', ', ' ,'),
        (list, sep) => {
          expect(parseTrustProxy(list.join(sep))).toEqual(list);
        },
      ),
    );
  });

  test('whatever the parser accepts, Fastify accepts at start-up', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(entry).map((l) => l.join(',')),
        ),
        (text) => {
          let parsed: ReturnType<typeof parseTrustProxy>;
          try {
            parsed = parseTrustProxy(text);
          } catch (err) {
            expect(err).toBeInstanceOf(TrustProxyError);
            return;
          }
          expect(fastifyAccepts(parsed)).toBe(true);
          if (typeof parsed === 'object') for (const e of parsed) expect(isAddressOrRange(e)).toBe(true);
        },
      ),
    );
  });

  test('a prefix of 0 or too long for its family, a hostname, an empty entry, "true" and zones are refused', () => {
    for (const bad of [
      '10.0.0.0/33',
      '::1/129',
      '0.0.0.0/0',
      '::/0',
      'proxy.internal',
      '127.0.0.1,',
      '1.2.3.4/8/8',
      'true',
      'fe80::1%eth0',
      '1.2.3',
    ]) {
      expect(() => parseTrustProxy(bad), bad).toThrow(TrustProxyError);
    }
  });
});

describe('PAYDESK_TRUST_PROXY in the configuration', () => {
  test('a bad value is one clear configuration error naming the variable', () => {
    expect(() => loadConfig({ PAYDESK_TRUST_PROXY: 'nginx' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYDESK_TRUST_PROXY: 'nginx' })).toThrow(
      /^Invalid configuration: PAYDESK_TRUST_PROXY: "nginx" is not an IP address or CIDR range/,
    );
  });

  test('unset trusts nobody; hops and lists are kept', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ PAYDESK_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ PAYDESK_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
  });
});
