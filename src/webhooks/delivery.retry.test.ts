import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DeliveryHarness, eventually, fanOutUntil, startDeliveryHarness } from '../../test/webhooks.js';
import { claimDue } from './delivery.repository.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './schedule.js';

// Short, so the timeout test is quick; long enough that a loaded machine does not time out the others.
const TIMEOUT_MS = 1_500;
let h: DeliveryHarness;
/** The warning the worker logged for the endpoint's first failed attempt. */
const warned = (endpointId: string) =>
  eventually(async () =>
    h.t.logs.find((l) => l.endpoint === endpointId && l.msg === 'webhook attempt failed' && l.attempt === 1),
  );
beforeAll(async () => {
  h = await startDeliveryHarness({ timeoutMs: TIMEOUT_MS });
});
afterAll(() => h.close());

describe('what is retried', () => {
  test('a receiver failing twice then answering 200 gets the same id and body three times', async () => {
    const r = await h.receiver((n) => [500, 503, 200][n] ?? 200);
    const { m, endpoint } = await h.merchantWith(r);
    await h.newInvoice(m);

    const first = await h.logHas(endpoint.id, 1);
    expect(first[0]).toMatchObject({ attempt: 1, outcome: 'retrying', response_status: 500 });
    const delay = Date.parse(first[0].next_attempt_at) - Date.parse(first[0].attempted_at);
    expect(delay).toBeGreaterThanOrEqual(4_000);
    expect(delay).toBeLessThanOrEqual(6_000);

    h.passRetryDelay(1);
    await h.logHas(endpoint.id, 2);
    h.passRetryDelay(2);
    const requests = await r.waitFor(3);
    const log = await h.logHas(endpoint.id, 3);

    // Each attempt is signed anew with its own timestamp; the library recomputes the signature.
    const signer = new Webhook(endpoint.secret);
    for (const req of requests) {
      expect(req.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
      expect(req.body).toBe(requests[0]!.body);
      const at = new Date(Number(req.headers['webhook-timestamp']) * 1000);
      expect(req.headers['webhook-signature']).toBe(
        signer.sign(String(req.headers['webhook-id']), at, req.body),
      );
    }
    expect(log.map((a) => [a.attempt, a.outcome, a.response_status])).toEqual([
      [3, 'succeeded', 200],
      [2, 'retrying', 503],
      [1, 'retrying', 500],
    ]);
  });

  test('a 4xx other than 408 and 429 is final: no retry', async () => {
    const r = await h.receiver(() => 400);
    const { m, endpoint } = await h.merchantWith(r);
    await h.newInvoice(m);
    const [attempt] = await h.logHas(endpoint.id, 1);
    expect(attempt).toMatchObject({
      attempt: 1,
      outcome: 'failed',
      response_status: 400,
      next_attempt_at: null,
    });
    expect(await warned(endpoint.id)).toMatchObject({
      level: 40,
      outcome: 'failed',
      reason: 'HTTP 400 from the receiver: a 2xx is needed',
    });

    h.passRetryDelay(MAX_ATTEMPTS - 1);
    expect(await h.nothingMoreFor(endpoint.id)).toEqual([]);
    expect(r.received).toHaveLength(1);
  });

  test('408 and 429 are retried', async () => {
    for (const status of [408, 429]) {
      const r = await h.receiver(() => status);
      const { m, endpoint } = await h.merchantWith(r);
      await h.newInvoice(m);
      const [attempt] = await h.logHas(endpoint.id, 1);
      expect(attempt, String(status)).toMatchObject({ outcome: 'retrying', response_status: status });
    }
  });

  test('a redirect is not followed and fails the delivery', async () => {
    const target = await h.receiver();
    const r = await h.receiver((_, res) => {
      res.setHeader('location', target.url);
      return 302;
    });
    const { m, endpoint } = await h.merchantWith(r);
    await h.newInvoice(m);
    const [attempt] = await h.logHas(endpoint.id, 1);
    expect(attempt).toMatchObject({ outcome: 'failed', response_status: 302, next_attempt_at: null });
    expect(attempt.error).toMatch(/redirect/i);
    // The attempt is recorded once its request is over: a redirect followed would have reached the target by now.
    expect(target.received).toHaveLength(0);
  });

  test('no answer within the timeout is a network error, retried', async () => {
    const r = await h.receiver(() => 'hang');
    const { m, endpoint } = await h.merchantWith(r);
    await h.newInvoice(m);
    const [attempt] = await h.logHas(endpoint.id, 1);
    expect(attempt).toMatchObject({ attempt: 1, outcome: 'retrying', response_status: null });
    expect(attempt.error).toBe(`No response within ${TIMEOUT_MS} ms`);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(await warned(endpoint.id)).toMatchObject({
      level: 40,
      reason: `No response within ${TIMEOUT_MS} ms`,
    });
  });

  test('a refused connection is a network error, retried', async () => {
    const r = await h.receiver();
    const { m, endpoint } = await h.merchantWith(r);
    await r.close();
    await h.newInvoice(m);
    const [attempt] = await h.logHas(endpoint.id, 1);
    expect(attempt).toMatchObject({ outcome: 'retrying', response_status: null });
    expect(attempt.error).toMatch(
      /^Connection refused: nothing listens at that address and port \(.*ECONNREFUSED/,
    );
    expect(await warned(endpoint.id)).toMatchObject({
      level: 40,
      outcome: 'retrying',
      reason: attempt.error,
    });
  });
});

describe('the schedule', () => {
  test(`gives up after ${MAX_ATTEMPTS} attempts, spaced as documented`, async () => {
    const r = await h.receiver(() => 503);
    const { m, endpoint } = await h.merchantWith(r);
    await h.newInvoice(m);
    for (let n = 1; n < MAX_ATTEMPTS; n++) {
      const [latest] = await h.logHas(endpoint.id, n);
      const delay = Date.parse(latest.next_attempt_at) - Date.parse(latest.attempted_at);
      const planned = RETRY_DELAYS_MS[n - 1]!;
      expect(delay, `after attempt ${n}`).toBeGreaterThanOrEqual(planned * 0.8);
      expect(delay, `after attempt ${n}`).toBeLessThanOrEqual(planned * 1.2);
      h.passRetryDelay(n);
    }
    const log = await h.logHas(endpoint.id, MAX_ATTEMPTS);
    expect(log[0]).toMatchObject({
      attempt: 8,
      outcome: 'failed',
      response_status: 503,
      next_attempt_at: null,
    });

    h.passRetryDelay(MAX_ATTEMPTS - 1);
    expect(await h.nothingMoreFor(endpoint.id)).toEqual([]);
    expect(r.received).toHaveLength(MAX_ATTEMPTS);
    const delivery = await h.t.database.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('endpoint_id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ status: 'failed', attempts: MAX_ATTEMPTS });
  });

  test('a delivery claimed by a worker that died is sent once its lease lapses', async () => {
    const r = await h.receiver();
    const { m, endpoint } = await h.merchantWith(r);
    await h.stopWorker();
    await h.newInvoice(m);
    // Fan out and claim it as a worker would, then "crash": nobody ever sends or records it.
    const now = h.clock();
    let claimed: Awaited<ReturnType<typeof claimDue>> = [];
    await fanOutUntil(h.t.database.db, async () => {
      claimed = await claimDue(h.t.database.db, {
        now,
        leaseUntil: new Date(now.getTime() + 60_000),
        limit: 100,
        perEndpoint: 100,
        busy: new Map(),
        inFlight: [],
      });
      return claimed.some((c) => c.endpoint_id === endpoint.id);
    });
    expect(claimed.map((c) => c.endpoint_id)).toContain(endpoint.id);
    await h.startWorker();
    // Leased to the dead worker: nothing a live one could claim, so nothing sent.
    expect(await h.nothingMoreFor(endpoint.id)).toEqual([]);
    expect(r.received).toHaveLength(0);

    h.clock.advance(60_001);
    h.wake();
    await r.waitFor(1);
    const [attempt] = await h.logHas(endpoint.id, 1);
    expect(attempt).toMatchObject({ attempt: 1, outcome: 'succeeded' });
  });
});
