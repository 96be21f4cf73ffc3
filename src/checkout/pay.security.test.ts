import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import {
  type LiveMoney,
  legacyMixedInvoice,
  liveMoney,
  moneyState,
  tryEveryRoute,
} from '../../test/public-surface.js';
import { watchedBuiltins } from '../../test/watched-node.js';

/**
 * The payment page surface (/pay), contract §21: no route of it, with any method and without
 * credentials, moves the money of a live invoice, open or paid (test/public-surface.ts).
 */
let t: TestApp;
let live: LiveMoney;
beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
  live = await liveMoney(t);
});
afterAll(() => t.close());

test('every /pay route, every method, query and body: no money moves, no 5xx', async () => {
  const before = await moneyState(t.app);
  expect(before.payments).toHaveLength(1);
  const tried = await tryEveryRoute(t, '/pay', {
    id: [live.openId, live.paidId],
    name: ['pay.css', 'x.png'],
  });
  // The page, its status, the simulate button and the assets are all among them.
  expect(tried).toEqual(expect.arrayContaining(['/pay/:id', '/pay/:id/status', '/pay/:id/simulate']));
  const after = await moneyState(t.app);
  expect(after.invoices.find((i) => i.id === live.openId)?.status).toBe('pending');
  expect(after.invoices.find((i) => i.id === live.paidId)?.status).toBe('paid');
});

test('a live invoice of a project that also lists the sandbox (saved before mixed_environments): no route moves it', async () => {
  const id = await legacyMixedInvoice(t);
  await tryEveryRoute(t, '/pay', { id: [id], name: ['pay.css'] });
  const after = (await moneyState(t.app)).invoices.find((i) => i.id === id);
  expect(after).toMatchObject({ status: 'pending' });
  expect(Number(after?.amount_paid)).toBe(0);
});
