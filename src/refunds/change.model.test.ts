import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { freshDatabase, onPostgres } from '../../test/database.js';
import { RefundModel, type Step, step } from '../../test/refund-model.js';
import {
  apiCancel,
  claim,
  newPayer,
  newRefund,
  refundOutcome,
  SANDBOX_WATCH,
  TRANSFER_BLOCK,
  watcherSees,
} from '../../test/refunds.js';
import { money } from '../money/money.js';
import { confirmBuriedRefunds, forgetRefundsAbove } from './watch.js';

// The model-based sequences of lifecycle.model.test.ts, through the one writer and the database: the
// payer claims on the claim page, the merchant cancels or asks for a new link through the merchant
// API, a watcher reports the transfer, its depth and a reorganisation, each on an instance drawn at
// random. Some rounds run two steps at once, on both instances: the outcome must be the model's after
// the two in one order or the other, refusals included (row locks serialise them). On PostgreSQL two
// app instances share the database; PGlite has one, which then runs both steps of a round.

let apps: TestApp[];
let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
let m: Merchant;
beforeAll(async () => {
  database = onPostgres ? await freshDatabase() : undefined;
  const a = await startTestApp({ databaseUrl: database?.url });
  apps = database ? [a, await startTestApp({ databaseUrl: database.url })] : [a];
  m = await createMerchant(a.app);
});
afterAll(async () => {
  for (const t of apps ?? []) await t.close();
  await database?.drop();
});

/** The refund under test, and what only the test knows of it: its current link and its payer. */
interface Subject {
  invoiceId: string;
  refundId: string;
  link: string;
  payer: string;
}

/** Runs one step on one instance; for the merchant's actions, the rule a refusal named. */
async function run(s: Step, t: TestApp, subject: Subject): Promise<string | undefined> {
  const now = new Date();
  switch (s.kind) {
    case 'claim': {
      // A used link shows the refund; a canceled refund's link is gone (404); nothing else is expected.
      const res = await claim(t.app, subject.link, subject.payer);
      expect([200, 303, 404], res.body.slice(0, 300)).toContain(res.statusCode);
      return undefined;
    }
    case 'cancel': {
      const res = await apiCancel(t.app, m, subject);
      return res.status === 200 ? undefined : res.rule;
    }
    case 'relink': {
      const url = `/v1/merchant/invoices/${subject.invoiceId}/refunds/${subject.refundId}/claim-link`;
      const res = await t.app.inject({ method: 'POST', url, headers: m.auth });
      if (res.statusCode === 200) subject.link = res.json().data.refund.claim_url;
      return res.json().error?.details?.errors?.[0]?.rule;
    }
    case 'paid':
      await t.app.db.transaction().execute((tx) => watcherSees(tx, subject.payer, s.final));
      return undefined;
    case 'buried':
      await confirmBuriedRefunds(t.app.db, SANDBOX_WATCH, TRANSFER_BLOCK, now);
      return undefined;
    case 'dropped':
      await t.app.db
        .transaction()
        .execute((tx) => forgetRefundsAbove(tx, 'sandbox', TRANSFER_BLOCK - 1n, now));
      return undefined;
  }
}

/**
 * What the database must hold after each round: the status, the invoice's refunded total (released
 * once on cancel) and one event per status announced.
 */
const expected = (model: RefundModel) => ({
  status: model.status,
  refunded: model.released === 1 ? 0n : money('10'),
  ready: model.readyEvents,
  confirmed: model.confirmedEvents,
});
type Outcome = ReturnType<typeof expected>;
const same = (a: Outcome, b: Outcome) =>
  a.status === b.status && a.refunded === b.refunded && a.ready === b.ready && a.confirmed === b.confirmed;

/** The model after `steps` in this order, with what each step was refused with. */
function after(model: RefundModel, steps: readonly Step[]) {
  const next = Object.assign(new RefundModel(), model);
  const refused = steps.map((s) => {
    next.step(s);
    return next.refused;
  });
  return { next, refused };
}

// Two steps at once, except a new link with a claim or another new link: which link is current
// then depends on who went first, and a claim with the other one is a different step.
const together = ([x, y]: readonly [Step, Step]) =>
  !(x.kind === 'relink' && (y.kind === 'relink' || y.kind === 'claim')) &&
  !(y.kind === 'relink' && x.kind === 'claim');

const rounds = fc.array(
  fc.oneof(
    fc.tuple(step, fc.nat()).map(([s, on]) => ({ steps: [s] as Step[], on })),
    fc
      .tuple(step, step)
      .filter(together)
      .map((pair) => ({ steps: [...pair], on: 0 })),
  ),
  { minLength: 1, maxLength: 8 },
);

test('the one writer stores what the model says, steps on either instance and two at once', async () => {
  await fc.assert(
    fc.asyncProperty(rounds, async (sequence) => {
      const made = await newRefund(apps[0]!.app, m);
      const subject: Subject = { ...made, link: made.claimUrl, payer: newPayer() };
      let model = new RefundModel();
      for (const round of sequence) {
        const refused = await Promise.all(
          round.steps.map((s, i) => run(s, apps[(round.on + i) % apps.length]!, subject)),
        );
        const stored = await refundOutcome(apps[0]!.app.db, subject.invoiceId, subject.refundId);
        const orders = round.steps.length === 1 ? [round.steps] : [round.steps, [...round.steps].reverse()];
        const fits = orders
          .map((order) => {
            const out = after(model, order);
            // Refusals back in the round's order, whichever order the steps were applied in.
            const byStep = order === round.steps ? out.refused : [...out.refused].reverse();
            return { ...out, byStep };
          })
          .find((o) => same(expected(o.next), stored) && o.byStep.every((r, i) => r === refused[i]));
        expect(
          fits,
          `${JSON.stringify(round.steps)} from ${model.status} → ${stored.status}, refused ${JSON.stringify(refused)}`,
        ).toBeDefined();
        model = fits!.next;
      }
      // Released exactly once if canceled, never otherwise.
      expect(model.released).toBe(model.status === 'canceled' ? 1 : 0);
    }),
    { numRuns: 25 },
  );
}, 180_000);
