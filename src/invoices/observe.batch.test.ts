import { afterAll, beforeAll, expect, test } from 'vitest';
import { createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { onPostgres } from '../../test/database.js';
import { type DatabaseHandle, openDatabase } from '../db/database.js';
import { money } from '../money/money.js';
import { observe, type Reported } from './observe.js';

// A chain watcher that confirms a backlog reports thousands of payments in one observe(): a TRON
// watcher back from an outage confirms 19 blocks' worth at once. The batch must be written whole, on
// both databases, past the 65,535 parameters one statement may carry.
// What this tests is volume, not time: on PostgreSQL observe() runs on a handle without the request
// bounds (as migrations do), so a loaded machine cannot fail it; in production no source hands it
// more than a step's 1,000 payments (chains/backlog.test.ts). PGlite has its one handle.
let t: TestApp;
let unbounded: DatabaseHandle | undefined;
beforeAll(async () => {
  t = await startTestApp();
  if (onPostgres) unbounded = await openDatabase(t.databaseUrl, { bounds: null });
});
afterAll(async () => {
  await unbounded?.close();
  await t?.close();
});

test('7,000 payments reported in one observe() are all written, in one transaction', async () => {
  const m = await createMerchant(t.app);
  // Created 50 at a time: concurrent creations share a commit (group commit), one by one they take seconds.
  const ids: string[] = [];
  for (let i = 0; i < 350; i += 50) {
    const created = await Promise.all(
      Array.from({ length: 50 }, () => createInvoice(t.app, m, { amount: '1.00' })),
    );
    ids.push(...created.map((res) => res.json().data.id as string));
  }
  // 20 payments to each of 350 invoices: one of 0.20 and 19 of dust (0.001, below 1 % of 1.00), so
  // each stays pending at 0.20 of 1.00. Dust sends no event: the batch writes 7,000 payments and 350
  // events.
  const reports: Reported[] = Array.from({ length: 7000 }, (_, i) => ({
    invoiceId: ids[i % ids.length] as string,
    observation: {
      kind: 'payment',
      network: 'sandbox',
      currency: 'USDT',
      txHash: `0x${i.toString(16).padStart(64, '0')}`,
      amount: money(i < ids.length ? '0.20' : '0.001'),
      confirmed: true,
      block: { number: BigInt(1000 + (i % 20)), hash: `0x${'ab'.repeat(32)}` },
    },
  }));
  await observe((unbounded ?? t.database).db, reports, {
    now: new Date(),
    publicBaseUrl: 'http://paydesk.test',
  });
  const rows = await t.database.db
    .selectFrom('payments')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('amount').as('total')])
    .where('invoice_id', 'in', ids)
    .executeTakeFirstOrThrow();
  expect(Number(rows.n)).toBe(7000);
  expect(money(String(rows.total))).toBe(money('76.65')); // 350 × (0.20 + 19 × 0.001)
  const one = (await t.app.inject({ url: `/v1/merchant/invoices/${ids[0]}`, headers: m.auth })).json().data;
  expect(one).toMatchObject({ status: 'pending', amount_paid: '0.20' });
}, 60_000);
