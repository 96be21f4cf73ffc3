import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMerchant, type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';

/**
 * Contract §21, "Behind a proxy", through a real HTTP server on a real port. The proxy is 127.0.0.1
 * (PAYDESK_TRUST_PROXY); a client that is not the proxy connects from 127.0.0.2 (the loopback
 * network is all of 127.0.0.0/8), so the socket's address is real in both cases, not injected.
 */
const PROXY = '127.0.0.1';
const STRANGER = '127.0.0.2';
const LIMIT = 3;
const BAD_KEY = { authorization: `Bearer svc_secret_${'x'.repeat(40)}` };

const clock = manualClock(new Date('2026-11-27T10:00:00.000Z'));
let t: TestApp;
let port: number;
let merchant: Merchant;

beforeAll(async () => {
  t = await startTestApp({
    clock,
    env: { PAYDESK_TRUST_PROXY: PROXY, AUTH_FAILURE_LIMIT: String(LIMIT) },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  merchant = await createMerchant(t.app);
});
afterAll(() => t.close());

/** GET /v1/merchant/me over a real connection from `from`, as the client named in X-Forwarded-For. */
function me(from: string, headers: Record<string, string>, to = port): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: to, path: '/v1/merchant/me', localAddress: from, headers },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The client address of each request's one log line (src/http/request-log.ts). */
const addressesLogged = (path: string, app = t) =>
  app.logs.filter((l) => l.msg === 'request completed' && l.url === path).map((l) => l.client_address);

describe('behind a trusted proxy', () => {
  test('failed keys lock out only the client that sent them, not the others behind the same proxy', async () => {
    const attacker = { 'x-forwarded-for': '203.0.113.5' };
    for (let i = 0; i < LIMIT; i++) expect(await me(PROXY, { ...attacker, ...BAD_KEY })).toBe(401);
    expect(await me(PROXY, { ...attacker, ...BAD_KEY })).toBe(429);
    // A merchant behind the same proxy (a chain of two proxies: the nearest untrusted hop is the client).
    expect(await me(PROXY, { 'x-forwarded-for': '198.51.100.1, 198.51.100.9', ...merchant.auth })).toBe(200);
    // Another client's mistake is its own first one, not a lockout.
    expect(await me(PROXY, { 'x-forwarded-for': '198.51.100.2', ...BAD_KEY })).toBe(401);
  });

  test('log lines name the forwarded client, not the proxy', async () => {
    await me(PROXY, { 'x-forwarded-for': '192.0.2.77', ...merchant.auth });
    expect(addressesLogged('/v1/merchant/me')).toContain('192.0.2.77');
    expect(addressesLogged('/v1/merchant/me')).not.toContain(PROXY);
  });
});

describe('from an address that is not a trusted proxy', () => {
  test('a forged X-Forwarded-For is ignored: every failure counts against the socket address', async () => {
    for (let i = 0; i < LIMIT; i++) {
      expect(await me(STRANGER, { 'x-forwarded-for': `198.18.0.${i + 1}`, ...BAD_KEY })).toBe(401);
    }
    expect(await me(STRANGER, { 'x-forwarded-for': '198.18.0.200', ...BAD_KEY })).toBe(429);
    expect(addressesLogged('/v1/merchant/me')).toContain(STRANGER);
    expect(addressesLogged('/v1/merchant/me')).not.toContain('198.18.0.1');
  });
});

describe('a number of hops', () => {
  test('1: the socket is the proxy, the last address it forwards is the client, whatever came before', async () => {
    const hops = await startTestApp({ clock, env: { PAYDESK_TRUST_PROXY: '1' } });
    try {
      await hops.app.listen({ port: 0, host: '127.0.0.1' });
      const to = (hops.app.server.address() as AddressInfo).port;
      await me(STRANGER, { 'x-forwarded-for': '203.0.113.50, 192.0.2.60', ...BAD_KEY }, to);
      expect(addressesLogged('/v1/merchant/me', hops)).toEqual(['192.0.2.60']);
    } finally {
      await hops.close();
    }
  });
});
