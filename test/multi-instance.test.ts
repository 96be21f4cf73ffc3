import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomBase62 } from '../src/ids.js';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  startTestApp,
  TEST_REDIS_URL,
  type TestApp,
} from './app.js';
import { freshDatabase, onPostgres } from './database.js';

/** Two instances of the app on one PostgreSQL database and one rate-limit key space, as in production. */
describe.skipIf(!onPostgres)('several instances on one database', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await freshDatabase();
    const shared = { databaseUrl: database.url, redisPrefix: `paydesk:test:${randomBase62(8)}:` };
    a = await startTestApp(shared);
    b = await startTestApp(shared);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const me = (t: TestApp, m: Merchant) => t.app.inject({ url: '/v1/merchant/me', headers: m.auth });
  const adminCall = (t: TestApp, method: 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload });

  test('25 concurrent creates with one Idempotency-Key over both make one invoice, all 201 with it', async () => {
    const m = await createMerchant(a.app);
    const key = `multi-${randomBase62(12)}`;
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        createInvoice(
          i % 2 ? b.app : a.app,
          m,
          { amount: '25.00', order_id: 'multi-race' },
          { 'idempotency-key': key },
        ),
      ),
    );
    for (const res of responses) expect(res.statusCode, res.body).toBe(201);
    const data = responses.map((r) => r.json().data);
    for (const d of data) expect(d).toEqual(data[0]);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);

    for (const t of [a, b]) {
      const list = await t.app.inject({ url: '/v1/merchant/invoices?order_id=multi-race', headers: m.auth });
      expect(list.json().meta.pagination.total).toBe(1);
    }
  });

  test('a key revoked through A is refused by B on the very next request, though B had it cached', async () => {
    const m = await createMerchant(a.app);
    expect((await me(b, m)).statusCode).toBe(200);
    expect((await me(b, m)).statusCode).toBe(200);

    const revoked = await adminCall(a, 'POST', `/v1/admin/api-keys/${m.keyId}/revoke`);
    expect(revoked.statusCode).toBe(200);
    const res = await me(b, m);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('API_KEY_REVOKED');
    expect((await me(a, m)).json().error.code).toBe('API_KEY_REVOKED');
  });

  test('an account deactivated through A is refused by B on the very next request', async () => {
    const m = await createMerchant(a.app);
    expect((await me(b, m)).statusCode).toBe(200);

    const off = await adminCall(a, 'PATCH', `/v1/admin/accounts/${m.accountId}`, { status: 'inactive' });
    expect(off.statusCode).toBe(200);
    const res = await me(b, m);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('ACCOUNT_NOT_ACTIVE');

    // And back on, at once, everywhere.
    await adminCall(a, 'PATCH', `/v1/admin/accounts/${m.accountId}`, { status: 'active' });
    expect((await me(b, m)).statusCode).toBe(200);
  });

  test('a project deactivated through B is refused by A on the very next request', async () => {
    const m = await createMerchant(b.app);
    expect((await me(a, m)).statusCode).toBe(200);
    const off = await adminCall(b, 'PATCH', `/v1/admin/projects/${m.projectId}`, { status: 'inactive' });
    expect(off.statusCode).toBe(200);
    expect((await me(a, m)).json().error.code).toBe('PROJECT_NOT_ACTIVE');
  });

  describe.skipIf(!TEST_REDIS_URL)('with Redis', () => {
    let la: TestApp;
    let lb: TestApp;
    const MAX = 6;
    beforeAll(async () => {
      // An hour-long window, so the requests below cannot straddle two windows.
      const shared = {
        databaseUrl: database.url,
        redisPrefix: `paydesk:test:${randomBase62(8)}:`,
        env: { RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_SECONDS: '3600' },
      };
      la = await startTestApp(shared);
      lb = await startTestApp(shared);
    });
    afterAll(async () => {
      await la?.close();
      await lb?.close();
    });

    test('the per-project rate limit is shared: requests split over A and B are limited together', async () => {
      const m = await createMerchant(la.app);
      const statuses: number[] = [];
      const remaining: string[] = [];
      for (let i = 0; i < MAX + 2; i++) {
        const res = await me(i % 2 ? lb : la, m);
        statuses.push(res.statusCode);
        remaining.push(String(res.headers['ratelimit-remaining']));
        if (res.statusCode === 429) {
          expect(res.json().error.code).toBe('RATE_LIMITED');
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      // Each instance alone has seen only MAX/2 + 1 requests: only a shared counter refuses any.
      expect(statuses).toEqual([...Array(MAX).fill(200), 429, 429]);
      expect(remaining.slice(0, MAX)).toEqual(['5', '4', '3', '2', '1', '0']);

      // Another project has its own budget.
      const other = await createMerchant(lb.app);
      expect((await me(la, other)).statusCode).toBe(200);
    });
  });
});
