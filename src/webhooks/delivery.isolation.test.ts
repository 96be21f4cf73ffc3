import { afterAll, beforeAll, expect, test } from 'vitest';
import { createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import {
  addEndpoint,
  type Receiver,
  startReceiver,
  startTestWorker,
  type TestWorker,
} from '../../test/webhooks.js';

const CONCURRENCY = 6;
const PER_ENDPOINT = 2;
let t: TestApp;
let worker: TestWorker;
let slow: Receiver;
let fast: Receiver;

beforeAll(async () => {
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  [slow, fast] = await Promise.all([startReceiver(() => 'hang'), startReceiver()]);
  // The slow receiver never answers within the test; the timeout must not be what frees its slots.
  worker = await startTestWorker(t, undefined, {
    timeoutMs: 120_000,
    concurrency: CONCURRENCY,
    perEndpoint: PER_ENDPOINT,
  });
});
afterAll(async () => {
  await worker.stop();
  await Promise.all([slow.close(), fast.close()]);
  await t.close();
});

test('an endpoint that never answers holds only its own slots: another endpoint is served at once', async () => {
  const stuck = await createMerchant(t.app);
  await addEndpoint(t.app, stuck.projectId, slow.url);
  // More deliveries for the slow endpoint than the worker has slots in all.
  for (let i = 0; i < CONCURRENCY + 2; i++) expect((await createInvoice(t.app, stuck)).statusCode).toBe(201);
  await slow.waitFor(PER_ENDPOINT);

  const healthy = await createMerchant(t.app);
  await addEndpoint(t.app, healthy.projectId, fast.url);
  const created = Date.now();
  expect((await createInvoice(t.app, healthy)).statusCode).toBe(201);
  const [received] = await fast.waitFor(1, 5_000);
  // Without the per-endpoint cap it would wait for the slow attempts to time out (120 s).
  expect(received!.at - created).toBeLessThan(3_000);
  // The per-endpoint cap held throughout: the slow endpoint never had more than its share in flight.
  expect(slow.received).toHaveLength(PER_ENDPOINT);
});
