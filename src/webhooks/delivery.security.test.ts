import { afterAll, beforeAll, expect, test } from 'vitest';
import { createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { merchantWithOwner } from '../../test/dashboard.js';
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
  expect(attempt.error).toBe(
    'Private address refused: set PAYDESK_WEBHOOK_ALLOW_PRIVATE=true for local receivers',
  );
  expect(r.received).toHaveLength(0);
});

/** Registers an endpoint at `url`, creates an invoice and waits for the first failed attempt. */
async function firstFailure(url: string) {
  const { m, owner } = await merchantWithOwner(t.app, `owner-${Math.random()}@shop.example`);
  const endpoint = await addEndpoint(t.app, m.projectId, url);
  const invoice = (await createInvoice(t.app, m)).json().data;
  const [attempt] = await eventually(async () => {
    const log = await attemptsOf(t.app, endpoint.id);
    return log.length > 0 && log;
  });
  const warned = await eventually(async () =>
    t.logs.find((l) => l.endpoint === endpoint.id && l.msg === 'webhook attempt failed'),
  );
  const pages = [
    (await owner.get('/dashboard/webhooks')).body,
    (await owner.get(`/dashboard/invoices/${invoice.id}`)).body,
  ];
  return { attempt, warned, pages };
}

test('a plain http receiver after a restart without the setting: the reason names the setting everywhere', async () => {
  const reason =
    'Plain http refused: use https://, or set PAYDESK_WEBHOOK_ALLOW_PRIVATE=true for local receivers';
  const { attempt, warned, pages } = await firstFailure(r.url);
  expect(attempt.error).toBe(reason);
  expect(warned).toMatchObject({ level: 40, outcome: 'retrying', attempt: 1, reason });
  for (const page of pages) {
    expect(page).toContain(reason);
    expect(page).not.toContain('no response');
  }
  expect(r.received).toHaveLength(0);
});
