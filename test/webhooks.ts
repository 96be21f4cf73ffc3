import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DeliveryTuning } from '../src/webhooks/delivery.job.js';
import { claimDue } from '../src/webhooks/delivery.repository.js';
import { fanOut } from '../src/webhooks/fan-out.js';
import { RETRY_DELAYS_MS } from '../src/webhooks/schedule.js';
import { startWorkers } from '../src/workers.js';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from './app.js';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers its n-th request (0-based): a status, or 'hang' to never answer. */
export type Behaviour = (n: number, res: ServerResponse) => number | 'hang';

/** A real HTTP server on 127.0.0.1 that records what it receives: the other end of a webhook. */
export async function startReceiver(behaviour: Behaviour = () => 200) {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const w of waiters.splice(0)) w();
      const answer = behaviour(n, res);
      if (answer !== 'hang') res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received.slice(0, count);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls `check` until it returns a value other than undefined/false. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Any admin call, answer unchecked. */
export function adminCall(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: object,
) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    ...(body ? { payload: body } : {}),
  });
}

/** Registers an endpoint and returns its id and secret (throws on anything but 201). */
export async function addEndpoint(app: FastifyInstance, projectId: string, url: string, events?: string[]) {
  const res = await adminCall(app, 'POST', `/v1/admin/projects/${projectId}/webhook-endpoints`, {
    url,
    ...(events ? { events } : {}),
  });
  if (res.statusCode !== 201) throw new Error(`endpoint: ${res.statusCode} ${res.body}`);
  const data = res.json().data;
  return { id: data.endpoint.id as string, secret: data.secret as string };
}

/** The delivery log of an endpoint, newest first. */
export async function attemptsOf(app: FastifyInstance, endpointId: string): Promise<any[]> {
  const res = await adminCall(app, 'GET', `/v1/admin/webhook-endpoints/${endpointId}/deliveries?limit=100`);
  if (res.statusCode !== 200) throw new Error(`deliveries: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export const DELIVERY_JOB = 'webhook-delivery';

/**
 * The webhook delivery job alone, as the app's workers run it, for a test app: on the test's clock,
 * abandoning in-flight sends at once on stop.
 */
export async function startTestWorker(
  t: TestApp,
  clock: () => Date = () => new Date(),
  tuning: Partial<DeliveryTuning> = {},
) {
  const jobs = await startWorkers({
    database: t.database,
    config: t.app.config,
    log: t.app.log,
    clock,
    only: [DELIVERY_JOB],
    deliveryTuning: { shutdownGraceMs: 0, ...tuning },
  });
  return { wake: () => jobs.wake(DELIVERY_JOB), stop: () => jobs.stop() };
}
export type TestWorker = Awaited<ReturnType<typeof startTestWorker>>;

/**
 * An app with private webhook URLs allowed, a delivery worker on the same manual clock, and helpers
 * to make receivers, merchants with endpoints, invoices (the event source) and to move time.
 */
export async function startDeliveryHarness(tuning: Partial<DeliveryTuning> = {}) {
  const clock = manualClock();
  const t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' }, clock });
  const receivers: Receiver[] = [];
  const startWorker = () => startTestWorker(t, clock, tuning);
  let worker: TestWorker | undefined = await startWorker();

  return {
    t,
    clock,
    async stopWorker() {
      await worker?.stop();
      worker = undefined;
    },
    async startWorker() {
      worker ??= await startWorker();
    },
    async receiver(behaviour?: Behaviour) {
      const r = await startReceiver(behaviour);
      receivers.push(r);
      return r;
    },
    /** A new merchant with one endpoint on `r`. */
    async merchantWith(r: Receiver, events?: string[]) {
      const m = await createMerchant(t.app);
      return { m, endpoint: await addEndpoint(t.app, m.projectId, r.url, events) };
    },
    /** Creates an invoice, and with it an invoice.created event; returns the invoice id. */
    async newInvoice(m: Merchant): Promise<string> {
      const res = await createInvoice(t.app, m);
      if (res.statusCode !== 201) throw new Error(`invoice: ${res.statusCode} ${res.body}`);
      return res.json().data.id;
    },
    /** Waits until the endpoint's log has `n` attempts; returns it, newest first. */
    logHas(endpointId: string, n: number) {
      return eventually(async () => {
        const log = await attemptsOf(t.app, endpointId);
        return log.length >= n && log;
      });
    },
    /** Moves time past the longest (jittered) retry delay after attempt `attempt`, and wakes the worker. */
    passRetryDelay(attempt: number) {
      clock.advance((RETRY_DELAYS_MS[attempt - 1] ?? 0) * 1.2 + 1000);
      worker?.wake();
    },
    wake() {
      worker?.wake();
    },
    /**
     * That nothing more can be sent to the endpoint, shown from state rather than by waiting to see
     * that nothing comes: the worker is stopped (its rounds and sends end, an aborted send hands its
     * lease back), and no delivery of the endpoint is left that a worker could claim at the
     * harness's clock, by the same query the worker claims with. Then the worker starts again.
     */
    async nothingMoreFor(endpointId: string) {
      await worker?.stop();
      worker = undefined;
      const now = clock();
      // A lease that ends now: anything claimed here stays claimable, so the check changes nothing.
      const claimable = await claimDue(t.database.db, {
        now,
        leaseUntil: now,
        limit: 1000,
        perEndpoint: 1000,
        busy: new Map(),
        inFlight: [],
      });
      worker = await startWorker();
      return claimable.filter((d) => d.endpoint_id === endpointId);
    },
    async close() {
      await worker?.stop();
      await Promise.all(receivers.map((r) => r.close()));
      await t.close();
    },
  };
}

export type DeliveryHarness = Awaited<ReturnType<typeof startDeliveryHarness>>;

/**
 * Runs the webhook fan-out (as a worker's rounds would) until `done` says what the test waits for is
 * there. Events are fanned out only once every transaction older than them has ended, on the whole
 * server (pg_snapshot_xmin): on a PostgreSQL shared with other tests that can take a moment.
 */
export async function fanOutUntil(
  db: Parameters<typeof fanOut>[0],
  done: () => Promise<boolean>,
  limit?: number,
): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await fanOut(db, limit);
    if (await done()) return;
    if (Date.now() > deadline) throw new Error('the fan-out did not get there within 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}
