import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  INVOICE_AMOUNT,
  InvoiceModel,
  observationOf,
  steps,
  T0,
  TTL_MS,
  tolerance,
} from '../../test/lifecycle-model.js';
import type { Money } from '../money/money.js';
import { confirmedTotal, isTerminal, opened, transition } from './lifecycle.js';

// Model-based: random sequences of payments (in the accepted token or another) and clock moves, under a
// random underpayment tolerance, replayed against the pure state machine
// and a reference model written from the contract. observe.model.test.ts replays them through
// observe() and the database.

test('the lifecycle agrees with the reference model on every sequence of payments and clock moves', () => {
  fc.assert(
    fc.property(steps, tolerance, (sequence, toleranceBasisPoints) => {
      let state = opened(INVOICE_AMOUNT as Money, new Date(T0 + TTL_MS), toleranceBasisPoints);
      const model = new InvoiceModel(toleranceBasisPoints);
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
          .filter((e) => e.type !== 'invoice.payment_detected' && e.type !== 'invoice.payment_unaccepted')
          .map((e) => ({ from: e.previousStatus, to: e.state.status }));
        expect(changes).toEqual(model.changes);
        const detected = out.emitted.filter((e) => e.type === 'invoice.payment_detected');
        expect(detected).toHaveLength(model.detected);
        const unaccepted = out.emitted.filter((e) => e.type === 'invoice.payment_unaccepted');
        expect(unaccepted).toHaveLength(model.unaccepted);
        expect(out.changed).toBe(out.emitted.length > 0 || out.payment !== undefined);

        // amount_paid is the sum of the payments confirmed and not reversed.
        expect(confirmedTotal(state)).toBe(model.confirmedSum());
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
