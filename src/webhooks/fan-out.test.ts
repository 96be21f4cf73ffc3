import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  admin,
  createInvoice,
  createMerchant,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { fanOutUntil } from '../../test/webhooks.js';
import { TEST_EVENT_TYPE } from '../events/catalogue.js';
import { nextEvents } from '../events/cursor.js';
import { fanOut } from './fan-out.js';

/** The fan-out rule (which endpoints receive an event), through the real database. */
describe('fanOut, on the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(() => t.close());

  const deliveriesOf = async (endpointId: string) =>
    (
      await sql<{
        type: string;
      }>`select ev.type from webhook_deliveries d join events ev on ev.id = d.event_id
        where d.endpoint_id = ${endpointId} order by d.id`.execute(t.database.db)
    ).rows.map((r) => r.type);
  const addEndpoint = async (projectId: string, events?: string[]) =>
    (
      await admin(t.app, 'POST', `/v1/admin/projects/${projectId}/webhook-endpoints`, {
        url: 'http://127.0.0.1:9/hooks',
        ...(events ? { events } : {}),
      })
    ).endpoint.id as string;

  test('the rule: own project, active, not deleted, added before the event, a type it takes, never a test event', async () => {
    const m = await createMerchant(t.app);
    const other = await createMerchant(t.app);
    const all = await addEndpoint(m.projectId);
    const paidOnly = await addEndpoint(m.projectId, ['invoice.paid']);
    const expiredOnly = await addEndpoint(m.projectId, ['invoice.expired']);
    const disabled = await addEndpoint(m.projectId);
    const deleted = await addEndpoint(m.projectId);
    const otherProject = await addEndpoint(other.projectId);
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };
    await sql`update webhook_endpoints set status = 'disabled' where id = ${disabled}`.execute(t.database.db);
    await t.app.inject({ method: 'DELETE', url: `/v1/admin/webhook-endpoints/${deleted}`, headers });
    const invoice = (await createInvoice(t.app, m)).json().data.id;
    await admin(t.app, 'POST', `/v1/admin/invoices/${invoice}/simulate-payment`, {});
    // A test event for `all`: it stays that endpoint's own, queued by the action.
    await sql`insert into events (id, project_id, invoice_id, type, body, created_at)
      values ('evt_ruletest', ${m.projectId}, null, ${TEST_EVENT_TYPE}, '{}', now())`.execute(t.database.db);
    const later = await addEndpoint(m.projectId); // added after every event above
    await fanOutUntil(t.database.db, async () => (await deliveriesOf(all)).length >= 3);
    await fanOutUntil(t.database.db, async () => (await fanOut(t.database.db)) === 0);
    expect(await deliveriesOf(all)).toEqual(['invoice.created', 'invoice.payment_detected', 'invoice.paid']);
    expect(await deliveriesOf(paidOnly)).toEqual(['invoice.paid']);
    for (const none of [expiredOnly, disabled, deleted, otherProject, later]) {
      expect(await deliveriesOf(none)).toEqual([]);
    }
  });

  test('an endpoint receives the events written after it was added, of its types, each once', async () => {
    const m = await createMerchant(t.app);
    await createInvoice(t.app, m); // before any endpoint: goes nowhere
    const all = await addEndpoint(m.projectId);
    const paidOnly = await addEndpoint(m.projectId, ['invoice.paid']);
    const invoice = (await createInvoice(t.app, m)).json().data.id;
    await admin(t.app, 'POST', `/v1/admin/invoices/${invoice}/simulate-payment`, {});
    await fanOutUntil(t.database.db, async () => (await deliveriesOf(paidOnly)).length >= 1);
    expect(await deliveriesOf(all)).toEqual(['invoice.created', 'invoice.payment_detected', 'invoice.paid']);
    expect(await deliveriesOf(paidOnly)).toEqual(['invoice.paid']);
    // Handled events are not handled again.
    await fanOut(t.database.db);
    expect(await deliveriesOf(all)).toHaveLength(3);
  });

  test('events written together (one statement) are handed out once each, in small rounds', async () => {
    const m = await createMerchant(t.app);
    const hooks = await addEndpoint(m.projectId);
    // Concurrent creates are group-committed: one transaction, consecutive sequence numbers that
    // cross a power of ten, which text order would sort wrongly.
    await Promise.all(Array.from({ length: 40 }, () => createInvoice(t.app, m)));
    await fanOutUntil(t.database.db, async () => (await deliveriesOf(hooks)).length >= 40, 7);
    await fanOut(t.database.db, 7);
    expect(await deliveriesOf(hooks)).toHaveLength(40);
  });

  test('two workers fanning out at once hand each event out once (one waits its turn)', async () => {
    const m = await createMerchant(t.app);
    const hooks = await addEndpoint(m.projectId);
    for (let i = 0; i < 30; i++) await createInvoice(t.app, m);
    await Promise.all([1, 2, 3].map(() => fanOut(t.database.db, 7)));
    await fanOutUntil(t.database.db, async () => (await deliveriesOf(hooks)).length >= 30, 7);
    await Promise.all([1, 2, 3].map(() => fanOut(t.database.db, 7)));
    expect(await deliveriesOf(hooks)).toHaveLength(30);
  });

  // Issue 37: the cursor bounds the index scan. Before, it was a join filter, and every round walked
  // the events index from the first event ever written: a round's cost grew with the table.
  test('a round reads the events after its cursor, not the ones behind it', async () => {
    const m = await createMerchant(t.app);
    await sql`insert into events (id, project_id, invoice_id, type, body, created_at)
      select 'evt_behind' || g, ${m.projectId}, null, 'invoice.created', '{}', now()
      from generate_series(1, 2000) g`.execute(t.database.db);
    await fanOutUntil(t.database.db, async () => (await fanOut(t.database.db)) === 0);
    await sql`insert into events (id, project_id, invoice_id, type, body, created_at)
      select 'evt_ahead' || g, ${m.projectId}, null, 'invoice.created', '{}', now()
      from generate_series(1, 3) g`.execute(t.database.db);
    const explained = await sql<{ 'QUERY PLAN': unknown }>`explain (analyze, format json)
      with ${nextEvents('webhook_fan_out', 500)} select count(*) from ev`.execute(t.database.db);
    const raw = explained.rows[0]?.['QUERY PLAN'];
    const plan = typeof raw === 'string' ? JSON.parse(raw) : raw;
    // Every row the plan read from `events`, in every node that scans it.
    const readFromEvents = (node: Record<string, unknown>): number =>
      (node['Relation Name'] === 'events' ? Number(node['Actual Rows']) * Number(node['Actual Loops']) : 0) +
      ((node.Plans as Array<Record<string, unknown>> | undefined) ?? []).reduce(
        (n, p) => n + readFromEvents(p),
        0,
      );
    expect(readFromEvents(plan[0].Plan)).toBeLessThanOrEqual(3);
    await fanOutUntil(t.database.db, async () => (await fanOut(t.database.db)) === 0);
  });
});
