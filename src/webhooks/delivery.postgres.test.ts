import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { freshDatabase, onPostgres } from '../../test/database.js';
import {
  addEndpoint,
  eventually,
  type Receiver,
  startReceiver,
  startTestWorker,
  type TestWorker,
} from '../../test/webhooks.js';

const INVOICES = 60;

function failFirstTimeOfEachEvent() {
  const seen = new Set<unknown>();
  return (_: number, res: { req: { headers: Record<string, unknown> } }) => {
    const id = res.req.headers['webhook-id'];
    if (seen.has(id)) return 200;
    seen.add(id);
    return 503;
  };
}

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database', () => {
  const clock = manualClock();
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let apps: TestApp[];
  let workers: TestWorker[];
  let receivers: Receiver[];

  beforeAll(async () => {
    db = await freshDatabase();
    const env = { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' };
    apps = await Promise.all([0, 1].map(() => startTestApp({ databaseUrl: db.url, env, clock })));
    // A stop lets the sends in flight finish (they are answered at once), so none is cut short unseen.
    workers = await Promise.all(apps.map((t) => startTestWorker(t, clock, { shutdownGraceMs: 10_000 })));
    // Every first attempt fails and every second one succeeds: two rounds of claims to race on.
    receivers = await Promise.all([0, 1, 2].map(() => startReceiver(failFirstTimeOfEachEvent())));
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(receivers.map((r) => r.close()));
    await Promise.all(apps.map((t) => t.close()));
    await db.drop();
  });

  test('each attempt is sent exactly once, whichever instance claims it', async () => {
    const m = await createMerchant(apps[0]!.app);
    for (const r of receivers) await addEndpoint(apps[0]!.app, m.projectId, r.url);
    for (let i = 0; i < INVOICES; i++) {
      expect((await createInvoice(apps[i % 2]!.app, m)).statusCode).toBe(201);
    }
    const { db: kysely } = apps[0]!.database;
    const attempts = () => kysely.selectFrom('webhook_attempts').select(['delivery_id', 'attempt']).execute();
    await eventually(async () => (await attempts()).length >= INVOICES * 3, 20_000);
    clock.advance(6_001);
    for (const w of workers) w.wake();
    const open = () =>
      kysely
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('status', '!=', 'succeeded')
        .executeTakeFirstOrThrow();
    // Settled: every delivery succeeded, so none is due again; stopping both workers then lets every
    // round and send in progress finish, and what is recorded after that is all there will ever be.
    await eventually(async () => Number((await open()).n) === 0, 20_000);
    await Promise.all(workers.splice(0).map((w) => w.stop()));

    const rows = await attempts();
    expect(rows).toHaveLength(INVOICES * 3 * 2);
    const perAttempt = countBy(rows.map((row) => `${row.delivery_id}/${row.attempt}`));
    expect([...perAttempt.values()].every((n) => n === 1)).toBe(true);
    for (const r of receivers) {
      const perEvent = countBy(r.received.map((x) => String(x.headers['webhook-id'])));
      expect(perEvent.size).toBe(INVOICES);
      expect([...perEvent.values()].every((n) => n === 2)).toBe(true);
    }
    // Both instances did take part: each logged some of the failed first attempts.
    for (const t of apps)
      expect(t.logs.filter((l) => l.msg === 'webhook attempt failed').length).toBeGreaterThan(0);
    expect(Number((await open()).n)).toBe(0);
  });
});

function countBy(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}
