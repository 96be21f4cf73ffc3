import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { createLink, pressPay, tokenOf } from '../../test/links.js';

let t: TestApp;
let m: Merchant;
beforeAll(async () => {
  t = await startTestApp();
  m = await createMerchant(t.app);
});
afterAll(() => t.close());

// On PostgreSQL (TEST_DATABASE_URL) the presses run on separate pooled connections at once: the
// claim's row lock and re-check are what keep the count, not a single connection's order.
test('at max_uses - 1, concurrent presses of "Pay" make exactly one more invoice', async () => {
  const link = await createLink(t.app, m, { max_uses: 2 });
  expect((await pressPay(t.app, link.id)).statusCode).toBe(303);
  const token = tokenOf((await t.app.inject({ url: `/l/${link.id}` })).body);
  const press = (i: number) =>
    t.app.inject({
      method: 'POST',
      url: `/l/${link.id}`,
      remoteAddress: `10.9.0.${i}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload: `token=${encodeURIComponent(token)}`,
    });
  const answers = await Promise.all([0, 1, 2, 3, 4, 5].map(press));
  const statuses = answers.map((r) => r.statusCode).sort();
  expect(statuses).toEqual([303, 409, 409, 409, 409, 409]);
  expect(answers.find((r) => r.statusCode === 409)?.body).toContain('as many times as it allows');
  const { data } = (
    await t.app.inject({ url: `/v1/merchant/payment-links/${link.id}/invoices`, headers: m.auth })
  ).json();
  expect(data).toHaveLength(2);
  const after = (
    await t.app.inject({ url: `/v1/merchant/payment-links/${link.id}`, headers: m.auth })
  ).json();
  expect(after.data.uses).toBe(2);
});

test('an expired link refuses "Pay" and its page says so', async () => {
  const link = await createLink(t.app, m, { expires_at: new Date(Date.now() + 60_000).toISOString() });
  const res = await pressPay(t.app, link.id, {}, '10.9.1.1', async () => {
    await t.database.db
      .updateTable('payment_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', link.id)
      .execute();
  });
  expect(res.statusCode).toBe(409);
  expect(res.body).toContain('ha caducado');
});
