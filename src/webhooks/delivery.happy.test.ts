import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { admin } from '../../test/app.js';
import { addEndpoint, adminCall, type DeliveryHarness, startDeliveryHarness } from '../../test/webhooks.js';

let h: DeliveryHarness;
beforeAll(async () => {
  h = await startDeliveryHarness();
});
afterAll(() => h.close());

describe('signing and shape', () => {
  test('each delivery verifies with the standardwebhooks library and carries the stored body', async () => {
    const r = await h.receiver();
    const { m, endpoint } = await h.merchantWith(r);
    const invoiceId = await h.newInvoice(m);

    const [req] = await r.waitFor(1);
    const payload = new Webhook(endpoint.secret).verify(
      req!.body,
      req!.headers as Record<string, string>,
    ) as any;
    expect(payload).toMatchObject({
      type: 'invoice.created',
      data: { invoice: { id: invoiceId, status: 'pending' }, previous_status: null },
    });
    expect(req!.headers['webhook-id']).toBe(payload.id);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['user-agent']).toBe(`Paydesk-Webhooks/${h.t.app.config.version}`);
    const stored = await h.t.database.db
      .selectFrom('events')
      .select('body')
      .where('id', '=', payload.id)
      .executeTakeFirstOrThrow();
    expect(req!.body).toBe(stored.body);

    const [attempt] = await h.logHas(endpoint.id, 1);
    expect(attempt).toEqual({
      event_id: payload.id,
      type: 'invoice.created',
      attempt: 1,
      outcome: 'succeeded',
      response_status: 200,
      duration_ms: expect.any(Number),
      error: null,
      attempted_at: expect.stringMatching(/Z$/),
      next_attempt_at: null,
    });
  });
});

describe('routing', () => {
  test('an endpoint gets only the event types it subscribed to', async () => {
    const all = await h.receiver();
    const paidOnly = await h.receiver();
    const { m } = await h.merchantWith(all);
    const paidEndpoint = await addEndpoint(h.t.app, m.projectId, paidOnly.url, ['invoice.paid']);
    const invoiceId = await h.newInvoice(m);
    await all.waitFor(1);
    await admin(h.t.app, 'POST', `/v1/admin/invoices/${invoiceId}/simulate-payment`, {});

    const [paid] = await paidOnly.waitFor(1);
    expect(JSON.parse(paid!.body)).toMatchObject({
      type: 'invoice.paid',
      data: { invoice: { id: invoiceId } },
    });
    await all.waitFor(3);
    expect(await h.nothingMoreFor(paidEndpoint.id)).toEqual([]);
    expect(paidOnly.received).toHaveLength(1);
    expect(all.received.map((x) => JSON.parse(x.body).type).sort()).toEqual([
      'invoice.created',
      'invoice.paid',
      'invoice.payment_detected',
    ]);
  });

  test('a deleted endpoint gets nothing more, not even the retries it had pending', async () => {
    const r = await h.receiver(() => 503);
    const { m, endpoint } = await h.merchantWith(r);
    await h.newInvoice(m);
    await h.logHas(endpoint.id, 1);
    expect(
      (await adminCall(h.t.app, 'DELETE', `/v1/admin/webhook-endpoints/${endpoint.id}`)).statusCode,
    ).toBe(200);

    await h.newInvoice(m);
    h.passRetryDelay(1);
    expect(await h.nothingMoreFor(endpoint.id)).toEqual([]);
    expect(r.received).toHaveLength(1);
  });
});

describe('redelivery', () => {
  test('sends the event again, now, to the endpoints that still exist', async () => {
    const kept = await h.receiver();
    const gone = await h.receiver();
    const { m, endpoint } = await h.merchantWith(kept);
    const removed = await addEndpoint(h.t.app, m.projectId, gone.url);
    await h.newInvoice(m);
    const [original] = await kept.waitFor(1);
    await gone.waitFor(1);
    await h.logHas(endpoint.id, 1);
    await adminCall(h.t.app, 'DELETE', `/v1/admin/webhook-endpoints/${removed.id}`);
    const eventId = String(original!.headers['webhook-id']);

    const res = await adminCall(h.t.app, 'POST', `/v1/admin/events/${eventId}/redeliver`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Event queued for 1 endpoint',
      data: {
        event_id: eventId,
        type: 'invoice.created',
        queued: [{ endpoint_id: endpoint.id, url: kept.url, series: 'new' }],
      },
    });
    const [, again] = await kept.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(eventId);
    expect(again!.body).toBe(original!.body);
    const log = await h.logHas(endpoint.id, 2);
    expect(log.map((a) => [a.event_id, a.attempt, a.outcome])).toEqual([
      [eventId, 1, 'succeeded'],
      [eventId, 1, 'succeeded'],
    ]);
    expect(await h.nothingMoreFor(removed.id)).toEqual([]);
    expect(gone.received).toHaveLength(1);
  });

  test('an event whose retries are still open has its next attempt brought forward, not doubled', async () => {
    const r = await h.receiver((n) => (n === 0 ? 500 : 200));
    const { m, endpoint } = await h.merchantWith(r);
    await h.newInvoice(m);
    const [first] = await r.waitFor(1);
    await h.logHas(endpoint.id, 1);
    const eventId = String(first!.headers['webhook-id']);

    const res = await adminCall(h.t.app, 'POST', `/v1/admin/events/${eventId}/redeliver`);
    expect(res.json().data.queued).toEqual([
      { endpoint_id: endpoint.id, url: r.url, series: 'brought_forward' },
    ]);
    await r.waitFor(2);
    const log = await h.logHas(endpoint.id, 2);
    expect(log.map((a) => [a.attempt, a.outcome])).toEqual([
      [2, 'succeeded'],
      [1, 'retrying'],
    ]);
    expect(await h.nothingMoreFor(endpoint.id)).toEqual([]);
    expect(r.received).toHaveLength(2);
  });
});
