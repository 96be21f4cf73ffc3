import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.js';
import { type DashboardUser, merchantWithOwner } from '../../test/dashboard.js';
import { freshDatabase, onPostgres } from '../../test/database.js';
import {
  apiCancel,
  holdOpen,
  readyRefund,
  refundOutcome,
  someoneWaitsForALock,
  watcherSees,
} from '../../test/refunds.js';
import { money } from '../money/money.js';
import { changeRefunds, each } from './change.js';
import { lockRefunds } from './lock.repository.js';

/**
 * Contract §22: a merchant's cancel racing the watcher that sees the refund's transfer. Whichever
 * takes the refund's row lock first decides, and the other re-reads what it left: never canceled and
 * confirmed, `amount_refunded` right, no `refund.confirmed` for a canceled refund. On PostgreSQL the
 * two sides run on two app instances sharing the database, one really holding the lock on its own
 * connection while the other waits for it (seen in pg_locks, not guessed from time); PGlite has one
 * connection and no second instance, so there the two orders are shown one after the other.
 */

let a: TestApp;
let b: TestApp;
let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
let merchant: Awaited<ReturnType<typeof merchantWithOwner>>['m'];
let owner: DashboardUser;
beforeAll(async () => {
  database = onPostgres ? await freshDatabase() : undefined;
  a = await startTestApp({ databaseUrl: database?.url });
  b = database ? await startTestApp({ databaseUrl: database.url }) : a;
  ({ m: merchant, owner } = await merchantWithOwner(a.app, 'race@shop.example'));
});
afterAll(async () => {
  await a?.close();
  if (b !== a) await b?.close();
  await database?.drop();
});

const ready = () => readyRefund(a.app, merchant);
const outcome = (r: { invoiceId: string; refundId: string }) =>
  refundOutcome(a.app.db, r.invoiceId, r.refundId);
const dashboardCancel = (refundId: string) =>
  owner.post(`/dashboard/refunds/${refundId}/cancel`, { back: '/dashboard/refunds' });
const CONFIRMED = { status: 'confirmed', refunded: money('10'), ready: 1, confirmed: 1 };
const CANCELED = { status: 'canceled', refunded: 0n, ready: 1, confirmed: 0 };

describe('cancel against the watcher confirming, one after the other (both databases)', () => {
  test('confirm, then cancel: the cancel is refused, the refund stays confirmed and counted', async () => {
    const r = await ready();
    await b.app.db.transaction().execute((tx) => watcherSees(tx, r.payer));
    const res = await dashboardCancel(r.refundId);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('not_cancelable');
    expect(await outcome(r)).toEqual(CONFIRMED);
  });

  test('cancel, then the transfer: the refund stays canceled, released once, and nothing is announced', async () => {
    const r = await ready();
    expect((await dashboardCancel(r.refundId)).statusCode).toBe(303);
    await b.app.db.transaction().execute((tx) => watcherSees(tx, r.payer));
    expect(await outcome(r)).toEqual(CANCELED);
    // A second cancel, on the other instance, releases nothing more.
    expect(await apiCancel(b.app, merchant, r)).toEqual({ status: 422, rule: 'not_cancelable' });
    expect((await outcome(r)).refunded).toBe(0n);
  });

  test('a transfer seen but not yet deep enough (sent) can no longer be canceled; it confirms later', async () => {
    const r = await ready();
    await b.app.db.transaction().execute((tx) => watcherSees(tx, r.payer, false));
    expect(await apiCancel(a.app, merchant, r)).toEqual({ status: 422, rule: 'not_cancelable' });
    expect(await outcome(r)).toEqual({ ...CONFIRMED, status: 'sent', confirmed: 0 });
  });
});

describe.runIf(onPostgres)(
  'cancel on one instance against the watcher on another, by row locks (PostgreSQL)',
  () => {
    test("B's watcher holds the lock: A's API cancel waits for it, then finds the refund confirmed", async () => {
      const r = await ready();
      const watcher = holdOpen(b.app.db, (tx) => watcherSees(tx, r.payer));
      await watcher.holding;
      const canceling = apiCancel(a.app, merchant, r);
      await someoneWaitsForALock(a.app.db);
      watcher.commit();
      await watcher.done;
      expect(await canceling).toEqual({ status: 422, rule: 'not_cancelable' });
      expect(await outcome(r)).toEqual(CONFIRMED);
    });

    test("B's watcher, holding the refund, writes its event while A's cancel holds the invoice and waits: no deadlock", async () => {
      const r = await ready();
      const target = { kind: 'ready_to' as const, network: 'sandbox', addresses: [r.payer as string] };
      let watch!: () => void;
      const go = new Promise<void>((resolve) => {
        watch = resolve;
      });
      // The watcher's transaction has locked the refund (as change.ts does first) and goes on only once
      // the cancel has locked the invoice and is waiting for the refund: the order that deadlocked.
      let refundLocked!: () => void;
      const locked = new Promise<void>((resolve) => {
        refundLocked = resolve;
      });
      const watcher = holdOpen(b.app.db, async (tx) => {
        await lockRefunds(tx, target);
        refundLocked();
        await go;
        await watcherSees(tx, r.payer);
      });
      // The cancel starts only once the watcher holds the refund: otherwise it may take both locks
      // first, and this test would be the "cancel, then the transfer" case.
      await locked;
      const canceling = apiCancel(a.app, merchant, r);
      await someoneWaitsForALock(a.app.db);
      watch();
      await watcher.holding;
      watcher.commit();
      await watcher.done;
      expect(await canceling).toEqual({ status: 422, rule: 'not_cancelable' });
      expect(await outcome(r)).toEqual(CONFIRMED);
    });

    test("A's cancel holds the lock: B's watcher waits for it, then finds no ready refund to pay", async () => {
      const r = await ready();
      const target = { kind: 'one', projectId: merchant.projectId, refundId: r.refundId } as const;
      const canceler = holdOpen(a.app.db, (tx) =>
        changeRefunds(tx, target, each({ kind: 'cancel' }), { now: new Date() }),
      );
      await canceler.holding;
      const watching = b.app.db.transaction().execute((tx) => watcherSees(tx, r.payer));
      await someoneWaitsForALock(b.app.db);
      canceler.commit();
      await Promise.all([canceler.done, watching]);
      expect(await outcome(r)).toEqual(CANCELED);
    });

    test('ten cancels and ten transfers at once over both instances: each refund one outcome or the other, never both', async () => {
      const refunds = await Promise.all(Array.from({ length: 10 }, () => ready()));
      const results = await Promise.all(
        refunds.map(async (r, i) => {
          const [api, watcher] = i % 2 ? [a, b] : [b, a];
          const [canceled] = await Promise.all([
            apiCancel(api.app, merchant, r),
            watcher.app.db.transaction().execute((tx) => watcherSees(tx, r.payer)),
          ]);
          return { canceled, outcome: await outcome(r) };
        }),
      );
      for (const { canceled, outcome } of results) {
        if (canceled.status === 200) expect(outcome).toEqual(CANCELED);
        else {
          expect(canceled).toEqual({ status: 422, rule: 'not_cancelable' });
          expect(outcome).toEqual(CONFIRMED);
        }
      }
    });
  },
);
