import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin, createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { fanOut, subscribes } from './fan-out.js';
import type { CandidateEndpoint, DueEvent } from './fan-out.repository.js';
import { TEST_EVENT_TYPE } from './webhook.js';

/** The fan-out rule (which endpoints receive an event), on its own and through the real database. */
const endpoint = (over: Partial<CandidateEndpoint> = {}): CandidateEndpoint => ({
  id: 'we_1',
  project_id: 'prj_1',
  events: [],
  status: 'active',
  deleted_at: null,
  events_after: '10',
  ...over,
});
const event = (over: Partial<DueEvent> = {}): DueEvent => ({
  id: 'evt_1',
  project_id: 'prj_1',
  type: 'invoice.paid',
  seq: '11',
  created_at: new Date(),
  ...over,
});

describe('subscribes', () => {
  test.each([
    ['an active endpoint of the project, all types', endpoint(), event(), true],
    ['a type it lists', endpoint({ events: ['invoice.paid'] }), event(), true],
    ['a type it does not list', endpoint({ events: ['invoice.expired'] }), event(), false],
    ["another project's event", endpoint(), event({ project_id: 'prj_2' }), false],
    ['a disabled endpoint', endpoint({ status: 'disabled' }), event(), false],
    ['a deleted endpoint', endpoint({ deleted_at: new Date() }), event(), false],
    ['an event written before the endpoint was added', endpoint(), event({ seq: '10' }), false],
    ['a test event, even to an endpoint of all types', endpoint(), event({ type: TEST_EVENT_TYPE }), false],
    [
      'sequence numbers compared as numbers, not text',
      endpoint({ events_after: '9' }),
      event({ seq: '10' }),
      true,
    ],
  ])('%s → %s', (_what, e, ev, expected) => {
    expect(subscribes(e, ev)).toBe(expected);
  });
});

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

  test('an endpoint receives the events written after it was added, of its types, each once', async () => {
    const m = await createMerchant(t.app);
    await createInvoice(t.app, m); // before any endpoint: goes nowhere
    const all = await addEndpoint(m.projectId);
    const paidOnly = await addEndpoint(m.projectId, ['invoice.paid']);
    const invoice = (await createInvoice(t.app, m)).json().data.id;
    await admin(t.app, 'POST', `/v1/admin/invoices/${invoice}/simulate-payment`, {});
    while ((await fanOut(t.database.db, new Date())) > 0);
    expect(await deliveriesOf(all)).toEqual(['invoice.created', 'invoice.payment_detected', 'invoice.paid']);
    expect(await deliveriesOf(paidOnly)).toEqual(['invoice.paid']);
    // Handled events are not handled again.
    expect(await fanOut(t.database.db, new Date())).toBe(0);
    expect(await deliveriesOf(all)).toHaveLength(3);
  });

  test('two workers fanning out at once hand each event out once', async () => {
    const m = await createMerchant(t.app);
    const hooks = await addEndpoint(m.projectId);
    for (let i = 0; i < 30; i++) await createInvoice(t.app, m);
    const rounds = await Promise.all([1, 2, 3].map(() => fanOut(t.database.db, new Date(), 7)));
    while ((await fanOut(t.database.db, new Date(), 7)) > 0);
    expect(rounds.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(await deliveriesOf(hooks)).toHaveLength(30);
  });
});
