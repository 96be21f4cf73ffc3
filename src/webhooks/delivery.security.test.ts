import { afterAll, beforeAll, expect, test } from 'vitest';
import { createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { addEndpoint, attemptsOf, eventually, type Receiver, startReceiver } from '../../test/webhooks.js';
import type { RunningJobs } from '../jobs/runner.js';
import { startWorkers } from '../workers.js';

let t: TestApp;
let worker: RunningJobs;
let r: Receiver;

beforeAll(async () => {
  // The endpoint is registered while private addresses are allowed; the worker runs without that flag,
  // as if the setting (or the name's DNS answer) changed after registration.
  t = await startTestApp({ env: { PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  r = await startReceiver();
  worker = await startWorkers({
    database: t.database,
    config: { ...t.app.config, webhookAllowPrivate: false },
    log: t.app.log,
    only: ['webhook-delivery'],
    deliveryTuning: { shutdownGraceMs: 0 },
  });
});
afterAll(async () => {
  await worker.stop();
  await r.close();
  await t.close();
});

test('the address is checked again at delivery time: a private one is refused and nothing is sent', async () => {
  const m = await createMerchant(t.app);
  const endpoint = await addEndpoint(
    t.app,
    m.projectId,
    r.url.replace('http://127.0.0.1', 'https://localhost'),
  );
  expect((await createInvoice(t.app, m)).statusCode).toBe(201);
  const [attempt] = await eventually(async () => {
    const log = await attemptsOf(t.app, endpoint.id);
    return log.length > 0 && log;
  });
  expect(attempt).toMatchObject({ attempt: 1, outcome: 'retrying', response_status: null });
  expect(attempt.error).toMatch(/^Refused: url must point to a public address/);
  expect(r.received).toHaveLength(0);
});
