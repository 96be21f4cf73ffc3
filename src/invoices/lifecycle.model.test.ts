import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  dustShare,
  INVOICE_AMOUNT,
  InvoiceModel,
  observationOf,
  steps,
  T0,
  TTL_MS,
  tolerance,
} from '../../test/lifecycle-model.js';
import type { Money } from '../money/money.js';
import { afterCloseTotal, confirmedTotal, isTerminal, opened, transition } from './lifecycle.js';

// Model-based: random sequences of payments (in the accepted token or another, dust among them) and
// clock moves, under a random underpayment tolerance and dust share, replayed against the pure state
// machine and a reference model written from the contract. observe.model.test.ts replays them through
// observe() and the database.

const NOTICES = ['invoice.payment_detected', 'invoice.payment_unaccepted', 'invoice.payment_after_close'];

test('the lifecycle agrees with the reference model on every sequence of payments and clock moves', () => {
  fc.assert(
    fc.property(steps, tolerance, dustShare, (sequence, toleranceBasisPoints, dustBasisPoints) => {
      const expiresAt = new Date(T0 + TTL_MS);
      let state = opened(INVOICE_AMOUNT as Money, expiresAt, toleranceBasisPoints, dustBasisPoints);
      const model = new InvoiceModel(toleranceBasisPoints, dustBasisPoints);
      let now = T0;
      for (const step of sequence) {
        if (step.kind === 'clock') now = step.to;
        model.step(step, now);
        const observation = observationOf(step);
        if (!observation) continue;
        const before = state.status;
        const out = transition(state, observation, new Date(now));
        state = out.state;

        // Terminal states stay terminal.
        if (isTerminal(before)) expect(state.status).toBe(before);
        // Exactly one event per status change, each naming the status it left.
        const changes = out.emitted
          .filter((e) => !NOTICES.includes(e.type))
          .map((e) => ({ from: e.previousStatus, to: e.state.status }));
        expect(changes).toEqual(model.changes);
        const detected = out.emitted.filter((e) => e.type === 'invoice.payment_detected');
        expect(detected).toHaveLength(model.detected);
        const unaccepted = out.emitted.filter((e) => e.type === 'invoice.payment_unaccepted');
        expect(unaccepted).toHaveLength(model.unaccepted);
        const afterClose = out.emitted.filter((e) => e.type === 'invoice.payment_after_close');
        expect(afterClose).toHaveLength(model.afterClose);
        expect(out.changed).toBe(out.emitted.length > 0 || out.payment !== undefined);

        // amount_paid is the sum of the payments confirmed and not reversed; money after close apart.
        expect(confirmedTotal(state)).toBe(model.confirmedSum());
        expect(afterCloseTotal(state)).toBe(model.afterCloseSum());
        const statuses = new Map(state.payments.map((p) => [`${p.txHash} ${p.currency}`, p.status]));
        expect(statuses).toEqual(model.statuses());
        expect(state).toMatchObject({
          status: model.status,
          failureReason: model.failureReason,
          paidLate: model.paidLate,
        });
        expect(state.paidAt !== null).toBe(model.status === 'paid');
        if (!isTerminal(state.status)) expect(state.txHash).toBe(model.latestStanding());
      }
    }),
    { numRuns: 2000 },
  );
});
