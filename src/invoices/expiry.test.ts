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
import { eventually } from '../../test/webhooks.js';
import { expireDue } from './observe.js';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

describe('the expiry job', () => {
  test('expires an overdue invoice that no request touches, on its first round past the deadline', async () => {
    const clock = manualClock();
    const t = await startTestApp({ clock, workers: ['invoice-expiry'] });
    apps.push(t);
    const m = await createMerchant(t.app, { invoice_ttl_seconds: 60 });
    const inv = (await createInvoice(t.app, m)).json().data;
    const deadline = Date.parse(inv.payment_expires_at);
    // Only the database is read, so no request touches the invoice through the API while it expires.
    const stored = () =>
      t.database.db
        .selectFrom('invoices')
        .select(['status', 'updated_at'])
        .where('id', '=', inv.id)
        .executeTakeFirstOrThrow();
    clock.set(new Date(deadline + 1));
    t.workers?.wake('invoice-expiry');
    const expired = await eventually(async () => {
      const row = await stored();
      return row.status === 'expired' && row;
    });
    expect(expired.updated_at.getTime()).toBe(deadline + 1);
    const res = await t.app.inject({ url: `/v1/merchant/invoices/${inv.id}`, headers: m.auth });
    expect(res.json().data.status).toBe('expired');
  });
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
    // An endpoint too: its deliveries are fanned out from the events (no delivery job runs here).
    await admin(a.app, 'POST', `/v1/admin/projects/${m.projectId}/webhook-endpoints`, {
      url: 'http://127.0.0.1:9/hook',
    });
    await Promise.all(Array.from({ length: 300 }, () => createInvoice(a.app, m, { amount: '1.00' })));
    clock.advance(61_000);
    const drain = async (t: TestApp) => {
      let total = 0;
      for (;;) {
        const n = await expireDue(t.database.db, { now: clock(), publicBaseUrl: 'http://paydesk.test' }, 25);
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
