import fc from 'fast-check';
import { expect, test } from 'vitest';
import { actionOf, RefundModel, steps } from '../../test/refund-model.js';
import { type RefundState, transition } from './lifecycle.js';

// Model-based: random sequences of claims, cancels, new links, transfers seen, buried and reorganised
// away, replayed against the pure state machine and a reference model written from the contract.
// change.model.test.ts replays them through the one writer and the database, on one and two instances.

const NOW = new Date('2026-01-01T00:00:00Z');

test('the refund lifecycle agrees with the reference model on every sequence of steps', () => {
  fc.assert(
    fc.property(steps, (sequence) => {
      const model = new RefundModel();
      let state = { status: 'awaiting_address', claim_token_hash: 'h' } as RefundState;
      let released = 0;
      let ready = 0;
      let confirmed = 0;
      for (const step of sequence) {
        const before = state.status;
        model.step(step);
        const out = transition(state, actionOf(step), NOW);
        state = out.state;
        if (out.released) released += 1;
        if (out.event?.type === 'refund.ready') ready += 1;
        if (out.event?.type === 'refund.confirmed') confirmed += 1;
        expect(out.refused).toBe(model.refused);
        expect(state.status).toBe(model.status);
        // A canceled refund stays canceled: never sent, never confirmed.
        if (before === 'canceled') expect(state.status).toBe('canceled');
        if (before === 'confirmed') expect(state.status).toBe('confirmed');
      }
      // Its amount is available again exactly once, and only for a canceled refund.
      expect(released).toBe(model.released);
      expect(released).toBe(state.status === 'canceled' ? 1 : 0);
      expect([ready, confirmed]).toEqual([model.readyEvents, model.confirmedEvents]);
      expect(confirmed).toBe(state.status === 'confirmed' ? 1 : 0);
    }),
    { numRuns: 2000 },
  );
});
