import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMerchant, type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { adminCall } from '../../test/webhooks.js';

const clock = manualClock();
let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' }, clock });
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

const endpointsOf = (projectId: string) => `/v1/admin/projects/${projectId}/webhook-endpoints`;

describe('POST /v1/admin/projects/{id}/webhook-endpoints', () => {
  test('registers an endpoint and shows its Standard Webhooks secret this once', async () => {
    const res = await adminCall(t.app, 'POST', endpointsOf(m.projectId), {
      url: 'http://127.0.0.1:9/hooks',
      events: ['invoice.paid', 'invoice.expired'],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(body.data.endpoint).toEqual({
      id: expect.stringMatching(/^we_[A-Za-z0-9]{22,}$/),
      project_id: m.projectId,
      url: 'http://127.0.0.1:9/hooks',
      events: ['invoice.paid', 'invoice.expired'],
      status: 'active',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const secret: string = body.data.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

    const list = await adminCall(t.app, 'GET', endpointsOf(m.projectId));
    expect(list.body).not.toContain(secret);
  });

  test('no events, null or an empty list all mean every event type (shown as [])', async () => {
    for (const extra of [{}, { events: null }, { events: [] }]) {
      const res = await adminCall(t.app, 'POST', endpointsOf(m.projectId), {
        url: 'https://8.8.8.8/',
        ...extra,
      });
      expect(res.statusCode, JSON.stringify(extra)).toBe(201);
      expect(res.json().data.endpoint.events).toEqual([]);
    }
  });

  test('rejects unknown fields, unknown event types and repeated ones, listing every error', async () => {
    const res = await adminCall(t.app, 'POST', endpointsOf(m.projectId), {
      url: 'https://8.8.8.8/',
      events: ['invoice.paid', 'invoice.refunded'],
      secret: 'mine',
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().error.details.errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'body', field: 'secret', rule: 'unknown_field' }),
        expect.objectContaining({ in: 'body', field: 'events.1', rule: 'enum' }),
      ]),
    );
    const twice = await adminCall(t.app, 'POST', endpointsOf(m.projectId), {
      url: 'https://8.8.8.8/',
      events: ['invoice.paid', 'invoice.paid'],
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().error.code).toBe('VALIDATION_ERROR');
  });

  test('an unknown project is NOT_FOUND', async () => {
    const res = await adminCall(t.app, 'POST', endpointsOf('prj_nope'), { url: 'https://8.8.8.8/' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect((await adminCall(t.app, 'GET', endpointsOf('prj_nope'))).statusCode).toBe(404);
  });
});

describe('listing and deleting endpoints', () => {
  test('lists a project’s live endpoints newest first; a deleted one leaves the list', async () => {
    const own = await createMerchant(t.app);
    const ids: string[] = [];
    for (const url of ['https://8.8.8.8/a', 'https://8.8.8.8/b', 'https://8.8.8.8/c']) {
      clock.advance(1);
      ids.push((await adminCall(t.app, 'POST', endpointsOf(own.projectId), { url })).json().data.endpoint.id);
    }
    const before = (await adminCall(t.app, 'GET', endpointsOf(own.projectId))).json().data;
    expect(before.map((e: any) => e.url)).toEqual([
      'https://8.8.8.8/c',
      'https://8.8.8.8/b',
      'https://8.8.8.8/a',
    ]);
    expect(before[0]).not.toHaveProperty('secret');

    const del = await adminCall(t.app, 'DELETE', `/v1/admin/webhook-endpoints/${ids[1]}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().data).toMatchObject({ id: ids[1], status: 'deleted' });
    const after = (await adminCall(t.app, 'GET', endpointsOf(own.projectId))).json().data;
    expect(after.map((e: any) => e.id)).toEqual([ids[2], ids[0]]);

    // Deleted is gone for DELETE, but its delivery log stays readable.
    expect((await adminCall(t.app, 'DELETE', `/v1/admin/webhook-endpoints/${ids[1]}`)).statusCode).toBe(404);
    const log = await adminCall(t.app, 'GET', `/v1/admin/webhook-endpoints/${ids[1]}/deliveries`);
    expect(log.statusCode).toBe(200);
  });

  test('an empty delivery log is a page with pagination meta; bad paging is VALIDATION_ERROR', async () => {
    const id = (await adminCall(t.app, 'POST', endpointsOf(m.projectId), { url: 'https://8.8.8.8/' })).json()
      .data.endpoint.id;
    const res = await adminCall(t.app, 'GET', `/v1/admin/webhook-endpoints/${id}/deliveries`);
    expect(res.json()).toMatchObject({
      success: true,
      data: [],
      meta: { pagination: { page: 1, limit: 20, total: 0, total_pages: 0, has_more: false } },
    });
    for (const q of ['limit=0', 'limit=101', 'page=0', 'cursor=x']) {
      const bad = await adminCall(t.app, 'GET', `/v1/admin/webhook-endpoints/${id}/deliveries?${q}`);
      expect(bad.statusCode, q).toBe(422);
    }
  });

  test('unknown endpoints and events are NOT_FOUND', async () => {
    for (const [method, url] of [
      ['DELETE', '/v1/admin/webhook-endpoints/we_nope'],
      ['GET', '/v1/admin/webhook-endpoints/we_nope/deliveries'],
      ['POST', '/v1/admin/events/evt_nope/redeliver'],
    ] as const) {
      const res = await adminCall(t.app, method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
  });
});
