import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { admin, manualClock } from '../../../test/app.js';
import { freePort } from '../../../test/process.js';
import { type ConnectionBehaviour, startProxy } from '../test/proxy.js';
import { type Server, startServer } from '../test/server.js';
import {
  PaydeskAPIError,
  PaydeskConnectionError,
  type PaydeskError,
  PaydeskRateLimitError,
} from './index.js';

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const proxies: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  s.sleeps.length = 0;
});

async function proxy(behaviour: (n: number) => ConnectionBehaviour) {
  const p = await startProxy(s.baseUrl, behaviour);
  proxies.push(p);
  return p;
}

const failsWith = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: PaydeskError) => e,
  );

const invoicesFor = async (orderId: string) => (await s.client().invoices.list({ order_id: orderId })).data;

describe('a create whose answer is lost on the way back', () => {
  test('is retried with the same generated idempotency key, and makes one invoice', async () => {
    const p = await proxy((n) => (n === 0 ? 'drop-after-answer' : 'forward'));
    const invoice = await s
      .client({ baseUrl: p.url })
      .invoices.create({ amount: '12.00', order_id: 'dropped-1' });

    expect(p.connections).toBe(2);
    const keys = p.header('idempotency-key');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(
      /^paydesk-node-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(keys[1]).toBe(keys[0]);
    // One trace id for the call, so Paydesk's log shows both attempts under it.
    const traces = p.header('traceparent').map((t) => t.split('-')[1]);
    expect(traces[1]).toBe(traces[0]);

    expect((await invoicesFor('dropped-1')).map((i) => i.id)).toEqual([invoice.id]);
    expect(s.statuses(traces[0])).toEqual([201, 201]);
    expect(s.sleeps).toHaveLength(1);
    expect(s.sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(s.sleeps[0]).toBeLessThanOrEqual(500);
  });

  test('is retried with the caller’s own idempotency key when one is given', async () => {
    const p = await proxy((n) => (n === 0 ? 'drop-after-answer' : 'forward'));
    const client = s.client({ baseUrl: p.url });
    const invoice = await client.invoices.create(
      { amount: '3.00', order_id: 'dropped-2' },
      { idempotencyKey: 'order-dropped-2' },
    );
    expect(p.header('idempotency-key')).toEqual(['order-dropped-2', 'order-dropped-2']);
    expect((await invoicesFor('dropped-2')).map((i) => i.id)).toEqual([invoice.id]);
  });

  test('without retries is a PaydeskConnectionError whose trace id finds the request in Paydesk’s log', async () => {
    const p = await proxy(() => 'drop-after-answer');
    const error = await failsWith(
      s.client({ baseUrl: p.url, maxRetries: 0 }).invoices.create({ amount: '1.00', order_id: 'dropped-3' }),
    );
    expect(error).toBeInstanceOf(PaydeskConnectionError);
    expect(error).toMatchObject({ code: 'CONNECTION_ERROR', statusCode: undefined });
    expect(error.message).toMatch(new RegExp(`^Could not reach Paydesk at ${p.url}: `));
    expect(s.statuses(error.traceId)).toEqual([201]);
    expect(await invoicesFor('dropped-3')).toHaveLength(1);
  });
});

describe('a refund whose answer is lost on the way back', () => {
  test('is retried with the same key: one refund, and the answer carries a working claim link', async () => {
    const invoice = await s.client().invoices.create({ amount: '9.00', order_id: 'refund-dropped' });
    await admin(s.app, 'POST', `/v1/admin/invoices/${invoice.id}/simulate-payment`, {});
    const p = await proxy((n) => (n === 0 ? 'drop-after-answer' : 'forward'));
    const refund = await s.client({ baseUrl: p.url }).refunds.create(invoice.id, { amount: '4.00' });
    const [first, second] = p.header('idempotency-key');
    expect(second).toBe(first);
    expect(await s.client().refunds.list(invoice.id)).toHaveLength(1);
    const claim = await s.app.inject({ url: new URL(refund.claim_url as string).pathname });
    expect(claim.statusCode).toBe(200);
  });
});

describe('network failures and 5xx', () => {
  test('a server nobody listens on: three attempts with growing waits, then PaydeskConnectionError', async () => {
    const client = s.client({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    const error = await failsWith(client.me());
    expect(error).toBeInstanceOf(PaydeskConnectionError);
    expect(error.message).toMatch(/ECONNREFUSED.*\(3 attempts\)$/);
    expect(error.traceId).toMatch(/^[0-9a-f]{32}$/);
    const [first, second] = s.sleeps;
    expect(s.sleeps).toHaveLength(2);
    expect(first).toBeGreaterThanOrEqual(250);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(500);
    expect(second).toBeLessThanOrEqual(1000);
  });

  test('a 502 from something in front of Paydesk is retried, and the retry succeeds', async () => {
    const p = await proxy((n) => (n === 0 ? 'bad-gateway' : 'forward'));
    const me = await s.client({ baseUrl: p.url }).me();
    expect(me.project.id).toBe(s.merchant.projectId);
    expect(p.connections).toBe(2);
  });

  test('502s to the end are a PaydeskAPIError saying the answer was not Paydesk’s', async () => {
    const p = await proxy(() => 'bad-gateway');
    const error = await failsWith(s.client({ baseUrl: p.url }).invoices.list());
    expect(error).toBeInstanceOf(PaydeskAPIError);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', statusCode: 502 });
    expect(error.message).toMatch(/without its JSON envelope/);
    expect(p.connections).toBe(3);
  });

  test('a Paydesk that lost its database answers 5xx: retried, then a PaydeskAPIError', async () => {
    const down = await startServer();
    try {
      await down.database.db.destroy();
      const error = await failsWith(down.client().invoices.create({ amount: '1.00' }));
      expect(error).toBeInstanceOf(PaydeskAPIError);
      expect(error.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error.statusCode).toBeGreaterThanOrEqual(500);
      expect(down.requests().filter((r) => r === 'POST /v1/merchant/invoices')).toHaveLength(3);
    } finally {
      await down.close();
    }
  });

  test('an attempt with no answer within timeoutMs is abandoned and tried again', async () => {
    const p = await proxy((n) => (n === 0 ? 'hang' : 'forward'));
    const me = await s.client({ baseUrl: p.url, timeoutMs: 500 }).me();
    expect(me.api_key.id).toBe(s.merchant.keyId);
    expect(p.header('traceparent')).toHaveLength(2);
  });

  test('an attempt with no answer at all ends in a PaydeskConnectionError naming the timeout', async () => {
    const p = await proxy(() => 'hang');
    const error = await failsWith(s.client({ baseUrl: p.url, timeoutMs: 50 }).me({ maxRetries: 0 }));
    expect(error).toBeInstanceOf(PaydeskConnectionError);
    expect(error.message).toMatch(/no answer within 50 ms$/);
  });
});

describe('429 RATE_LIMITED', () => {
  let limited: Server;
  const clock = manualClock(new Date('2026-01-01T00:00:00.000Z'));
  beforeAll(async () => {
    limited = await startServer({ clock, env: { RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '10' } });
  });
  afterAll(() => limited.close());

  /** A client whose waits move Paydesk's clock, so honouring Retry-After takes no real time. */
  const patient = (maxRetries?: number) =>
    limited.client({
      ...(maxRetries === undefined ? {} : { maxRetries }),
      sleep: async (ms) => {
        limited.sleeps.push(ms);
        clock.advance(ms);
      },
    });

  test('waits as long as Retry-After says, then succeeds', async () => {
    clock.set(new Date('2026-01-01T00:00:03.000Z'));
    const client = patient();
    await client.me();
    await client.me();
    const me = await client.me();
    expect(me.project.id).toBe(limited.merchant.projectId);
    // The window began at :00 and lasts 10 s; at :03 Paydesk says to come back in 7 s.
    expect(limited.sleeps).toEqual([7000]);
    expect(limited.statuses().slice(-4)).toEqual([200, 200, 429, 200]);
  });

  test('without retries is a PaydeskRateLimitError with retryAfterSeconds', async () => {
    clock.set(new Date('2026-01-01T00:01:01.000Z'));
    const client = patient(0);
    await client.me();
    await client.me();
    const error = await failsWith(client.invoices.list());
    expect(error).toBeInstanceOf(PaydeskRateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', statusCode: 429, retryAfterSeconds: 9 });
    expect(error.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('a Retry-After longer than a minute', () => {
  test('is not waited for: the PaydeskRateLimitError goes to the caller at once', async () => {
    const clock = manualClock(new Date('2026-01-01T00:00:00.000Z'));
    const env = { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '3600' };
    const hourly = await startServer({ clock, env });
    try {
      const client = hourly.client();
      await client.me();
      const error = await failsWith(client.me());
      expect(error).toBeInstanceOf(PaydeskRateLimitError);
      expect((error as PaydeskRateLimitError).retryAfterSeconds).toBe(3600);
      expect(hourly.sleeps).toEqual([]);
    } finally {
      await hourly.close();
    }
  });
});
