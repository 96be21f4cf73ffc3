import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { PAGE_LIMIT, SIMULATE_LIMIT } from './routes.js';

// A clock at the start of a minute, so every request of a test falls in one rate-limit window.
const clock = manualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1000));
let t: TestApp;
let id: string;
beforeAll(async () => {
  t = await startTestApp({ clock });
  const m = await createMerchant(t.app);
  id = (await createInvoice(t.app, m)).json().data.id;
});
afterAll(() => t.close());

const get = (url: string, remoteAddress: string) => t.app.inject({ url, remoteAddress });

describe('per client address limits on /pay', () => {
  test('page and status share one limit; past it the page is an HTML 429 and status the JSON one', async () => {
    const address = '203.0.113.1';
    for (let i = 0; i < PAGE_LIMIT.max; i++) {
      const res = await get(i % 2 ? `/pay/${id}` : `/pay/${id}/status`, address);
      expect(res.statusCode).toBe(200);
    }
    const page = await get(`/pay/${id}`, address);
    expect(page.statusCode).toBe(429);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(Number(page.headers['retry-after'])).toBeGreaterThan(0);
    expect(page.body).toContain('Too many requests');
    const status = await get(`/pay/${id}/status`, address);
    expect(status.statusCode).toBe(429);
    expect(status.json().error).toMatchObject({ code: 'RATE_LIMITED' });
    // Unknown ids count too: the limit is not a way to probe for invoices.
    expect((await get('/pay/inv_nothing0000000000000000000', address)).statusCode).toBe(429);
    // Another address is not affected, and the next window starts afresh.
    expect((await get(`/pay/${id}`, '203.0.113.2')).statusCode).toBe(200);
    clock.advance(PAGE_LIMIT.windowMs);
    expect((await get(`/pay/${id}`, address)).statusCode).toBe(200);
  });

  test('the simulate button has a lower limit of its own', async () => {
    const address = '203.0.113.9';
    const post = () => t.app.inject({ method: 'POST', url: `/pay/${id}/simulate`, remoteAddress: address });
    for (let i = 0; i < SIMULATE_LIMIT.max; i++) expect((await post()).statusCode).toBe(303);
    const res = await post();
    expect(res.statusCode).toBe(429);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(SIMULATE_LIMIT.max).toBeLessThan(PAGE_LIMIT.max);
  });
});
