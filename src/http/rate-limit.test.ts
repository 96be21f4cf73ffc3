import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  admin,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';

const MAX = 3;
const WINDOW_SECONDS = 3600;

// The limiter counts on the app's clock: at the start of a window here, so no test straddles two.
const clock = manualClock(new Date('2026-11-21T10:00:00.000Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    clock,
    env: {
      RATE_LIMIT_MAX: String(MAX),
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      AUTH_FAILURE_LIMIT: '3',
    },
  });
});
afterAll(() => t.close());

const me = (m: Merchant, remoteAddress = '127.0.0.1') =>
  t.app.inject({ url: '/v1/merchant/me', headers: m.auth, remoteAddress });

function expectRateLimited(res: LightMyRequestResponse, maxWait: number) {
  expect(res.statusCode).toBe(429);
  const body = res.json();
  expect(body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
  const wait = body.error.details.retry_after_seconds;
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(maxWait);
  expect(res.headers['retry-after']).toBe(String(wait));
}

describe('per-project limit', () => {
  test('a project gets RATE_LIMIT_MAX requests per window, counted down in the headers, then 429', async () => {
    const m = await createMerchant(t.app);
    for (let i = 1; i <= MAX; i++) {
      const res = await me(m);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe(String(MAX));
      expect(res.headers['ratelimit-remaining']).toBe(String(MAX - i));
      const reset = Number(res.headers['ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
    const refused = await me(m);
    expectRateLimited(refused, WINDOW_SECONDS);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
  });

  test('the limit is per project: another key of the same project shares it, another project does not', async () => {
    const a = await createMerchant(t.app);
    const b = await createMerchant(t.app);
    for (let i = 0; i < MAX; i++) await me(a);
    const second = await admin(t.app, 'POST', `/v1/admin/projects/${a.projectId}/api-keys`, {});
    const sameProject = await t.app.inject({
      url: '/v1/merchant/me',
      headers: { authorization: `Bearer ${second.secret}` },
    });
    expectRateLimited(sameProject, WINDOW_SECONDS);
    const other = await me(b);
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe(String(MAX - 1));
  });

  test('/v1/health is never rate limited', async () => {
    for (let i = 0; i < MAX * 3; i++) {
      const res = await t.app.inject({ url: '/v1/health' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('failed-authentication limit', () => {
  test('after AUTH_FAILURE_LIMIT unknown keys from one address, the next attempt is 429 before any key lookup', async () => {
    const fresh = await createMerchant(t.app);
    const attacker = '203.0.113.7';
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        url: '/v1/merchant/me',
        headers: { authorization: `Bearer svc_secret_${String(i).repeat(40)}` },
        remoteAddress: attacker,
      });
      expect(res.json().error.code).toBe('API_KEY_INVALID');
    }
    const guess = await t.app.inject({
      url: '/v1/merchant/me',
      headers: { authorization: `Bearer svc_secret_${'9'.repeat(40)}` },
      remoteAddress: attacker,
    });
    expectRateLimited(guess, 60);
    // Even a valid key is refused from that address, and was never looked up: it was not marked used.
    expectRateLimited(await me(fresh, attacker), 60);
    const row = await t.database.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', fresh.keyId)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).toBeNull();
    // Other addresses are unaffected.
    expect((await me(fresh, '198.51.100.1')).statusCode).toBe(200);
    // The next minute, the address may try again.
    clock.advance(60_000);
    expect((await me(fresh, attacker)).statusCode).toBe(200);
  });
});

describe('windows', () => {
  test('a new window, on the app clock, gives a project its full allowance again', async () => {
    const m = await createMerchant(t.app);
    for (let i = 0; i < MAX; i++) expect((await me(m)).statusCode).toBe(200);
    expect((await me(m)).statusCode).toBe(429);
    clock.advance(WINDOW_SECONDS * 1000);
    const res = await me(m);
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe(String(MAX - 1));
  });
});
