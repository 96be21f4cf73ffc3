import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';

/** The lines `act` logged, however many; each request's are told apart by the count before. */
async function linesOf(t: TestApp, act: () => Promise<LightMyRequestResponse>) {
  const before = t.logs.length;
  const res = await act();
  return { res, lines: t.logs.slice(before) };
}

describe('at info', () => {
  let t: TestApp;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestApp();
    m = await createMerchant(t.app);
  });
  afterAll(() => t.close());

  test('a create is one line, with what an operator reads together', async () => {
    const { res, lines } = await linesOf(t, () => createInvoice(t.app, m));
    expect(res.statusCode).toBe(201);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'POST',
      url: '/v1/merchant/invoices',
      status_code: 201,
      client_address: '127.0.0.1',
      trace_id: res.headers['x-trace-id'],
    });
    expect(typeof lines[0]?.response_time_ms).toBe('number');
  });

  test('a refused request is one line too, with its status', async () => {
    const { lines } = await linesOf(t, () => createInvoice(t.app, m, { amount: 10 }));
    expect(lines.map((l) => l.status_code)).toEqual([422]);
  });

  test("the payment page's poll and a health check log nothing", async () => {
    const invoice = (await createInvoice(t.app, m)).json().data;
    const poll = await linesOf(t, () => t.app.inject({ url: `/pay/${invoice.id}/status` }));
    expect(poll.res.statusCode).toBe(200);
    expect(poll.lines).toEqual([]);
    const health = await linesOf(t, () => t.app.inject({ url: '/v1/health' }));
    expect(health.res.statusCode).toBe(200);
    expect(health.lines).toEqual([]);
  });

  test('an invite link is logged with its token redacted', async () => {
    const { lines } = await linesOf(t, () => t.app.inject({ url: '/dashboard/invite/sekret-token-value' }));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.url).toBe('/dashboard/invite/…alue'); // contract §21: … and the last 4
  });
});

test('at debug, a poll is one line at debug level', async () => {
  const t = await startTestApp({ env: { LOG_LEVEL: 'debug' } });
  try {
    const m = await createMerchant(t.app);
    const invoice = (await createInvoice(t.app, m)).json().data;
    const { lines } = await linesOf(t, () => t.app.inject({ url: `/pay/${invoice.id}/status` }));
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ level: 20, url: `/pay/${invoice.id}/status`, status_code: 200 });
  } finally {
    await t.close();
  }
});
