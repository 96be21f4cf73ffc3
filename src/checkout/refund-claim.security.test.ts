import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { type LiveMoney, liveMoney, moneyState, tryEveryRoute } from '../../test/public-surface.js';
import { watchedBuiltins } from '../../test/watched-node.js';

/**
 * The refund claim surface (/refund), contract §21: no route of it, with any method, a guessed
 * token or the link itself without a usable address, moves money (test/public-surface.ts).
 */
let t: TestApp;
let live: LiveMoney;
beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
  live = await liveMoney(t);
});
afterAll(() => t.close());

test('every /refund route, every method, query and body: no money moves, no 5xx', async () => {
  const tried = await tryEveryRoute(t, '/refund', { token: ['A'.repeat(43), live.claimToken] });
  expect(tried).toContain('/refund/:token');
  const [refund] = (await moneyState(t.app)).refunds;
  expect(refund).toMatchObject({ invoice_id: live.paidId, status: 'awaiting_address', address: null });
});
