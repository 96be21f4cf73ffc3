import { afterAll, describe, expect, test } from 'vitest';
import {
  admin,
  createInvoice,
  createMerchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { freshDatabase, onPostgres } from '../../test/database.js';
import { expireDue } from './transition.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

describe('expiry in real time', () => {
  test('the worker expires an invoice with a 60 s TTL within a few seconds of payment_expires_at, untouched', async () => {
    const t = await startTestApp({ workers: true });
    apps.push(t);
    const m = await createMerchant(t.app, { invoice_ttl_seconds: 60 });
    const inv = (await createInvoice(t.app, m)).json().data;
    const deadline = Date.parse(inv.payment_expires_at);
    // Only the database is polled, so no request touches the invoice through the API while it expires.
    let expiredSeenAt: number | undefined;
    while (Date.now() < deadline + 15_000) {
      const row = await t.database.db
        .selectFrom('invoices')
        .select(['status', 'updated_at'])
        .where('id', '=', inv.id)
        .executeTakeFirstOrThrow();
      if (row.status === 'expired') {
        expiredSeenAt = row.updated_at.getTime();
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(expiredSeenAt).toBeDefined();
    expect((expiredSeenAt as number) - deadline).toBeLessThan(5_000);
    expect((expiredSeenAt as number) - deadline).toBeGreaterThanOrEqual(0);
    const res = await t.app.inject({ url: `/v1/merchant/invoices/${inv.id}`, headers: m.auth });
    expect(res.json().data.status).toBe('expired');
  }, 90_000);
});

describe.skipIf(!onPostgres)('expiry on two instances sharing PostgreSQL', () => {
  test('each overdue invoice is moved exactly once, with exactly one event', async () => {
    const clock = manualClock();
    const db = await freshDatabase();
    const env = { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' };
    const a = await startTestApp({ databaseUrl: db.url, clock, env });
    const b = await startTestApp({ databaseUrl: db.url, clock, env });
    apps.push(a, b);
    const m = await createMerchant(a.app, { invoice_ttl_seconds: 60 });
    // An endpoint, so that the transitions write their events (no delivery worker runs here).
    await admin(a.app, 'POST', `/v1/admin/projects/${m.projectId}/webhook-endpoints`, {
      url: 'http://127.0.0.1:9/hook',
    });
    await Promise.all(Array.from({ length: 300 }, () => createInvoice(a.app, m, { amount: '1.00' })));
    clock.advance(61_000);
    const drain = async (t: TestApp) => {
      let total = 0;
      for (;;) {
        const n = await expireDue(t.database.db, clock(), 25, 'http://paydesk.test');
        total += n;
        if (n === 0) return total;
      }
    };
    // Four concurrent drainers, two per instance, race over the same rows.
    const moved = await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    expect(moved.reduce((x, y) => x + y, 0)).toBe(300);
    const expiredEvents = await a.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('type', '=', 'invoice.expired')
      .executeTakeFirstOrThrow();
    expect(Number(expiredEvents.n)).toBe(300);
    await a.close();
    await b.close();
    apps.length = 0;
    await db.drop();
  }, 60_000);
});
