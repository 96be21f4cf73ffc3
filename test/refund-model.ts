import fc from 'fast-check';
import type { RefundAction } from '../src/refunds/lifecycle.js';

/**
 * A reference model of a refund (contract §18, §22), written from the prose rather than from
 * src/refunds/lifecycle.ts, and the random sequences of steps the model-based tests replay against
 * both: the payer claims, the merchant cancels or asks for a new link, a transfer is seen (deep
 * enough or not), buried, and reorganised away, in any order.
 */
export type Step =
  | { kind: 'claim' }
  | { kind: 'cancel' }
  | { kind: 'relink' }
  | { kind: 'paid'; final: boolean }
  | { kind: 'buried' }
  | { kind: 'dropped' };

export const step = fc.oneof(
  fc.constant<Step>({ kind: 'claim' }),
  fc.constant<Step>({ kind: 'cancel' }),
  fc.constant<Step>({ kind: 'relink' }),
  fc.boolean().map<Step>((final) => ({ kind: 'paid', final })),
  fc.constant<Step>({ kind: 'buried' }),
  fc.constant<Step>({ kind: 'dropped' }),
);

export const steps = fc.array(step, { maxLength: 12 });

type Status = 'awaiting_address' | 'ready' | 'sent' | 'confirmed' | 'canceled';

export class RefundModel {
  status: Status = 'awaiting_address';
  /** How many times its amount stopped counting against what was paid (0, or 1 once canceled). */
  released = 0;
  readyEvents = 0;
  confirmedEvents = 0;
  /** The rule the last step was refused with, if it was. */
  refused: string | undefined;

  step(s: Step): void {
    this.refused = undefined;
    const from = this.status;
    switch (s.kind) {
      case 'claim':
        // The claim link works once, while the refund waits for an address.
        if (from === 'awaiting_address') this.to('ready');
        return;
      case 'relink':
        if (from !== 'awaiting_address') this.refused = 'not_awaiting_address';
        return;
      case 'cancel':
        // Once its transfer is seen, the money is on its way: no cancel.
        if (from === 'awaiting_address' || from === 'ready') this.to('canceled');
        else this.refused = 'not_cancelable';
        return;
      case 'paid':
        // Only a ready refund is paid; a canceled one never is.
        if (from === 'ready') this.to(s.final ? 'confirmed' : 'sent');
        return;
      case 'buried':
        if (from === 'sent') this.to('confirmed');
        return;
      case 'dropped':
        if (from === 'sent') this.status = 'ready'; // waits again, announcing nothing
        return;
    }
  }

  private to(status: Status): void {
    this.status = status;
    if (status === 'canceled') this.released += 1;
    if (status === 'ready') this.readyEvents += 1;
    if (status === 'confirmed') this.confirmedEvents += 1;
  }
}

/** A step as the lifecycle's action. */
export function actionOf(step: Step): RefundAction {
  switch (step.kind) {
    case 'claim':
      return {
        kind: 'claim',
        network: 'sandbox',
        token: 'USDT',
        tokenAmount: '1',
        address: 'a',
        afterBlock: null,
      };
    case 'relink':
      return { kind: 'relink', claimTokenHash: 'new' };
    case 'paid':
      return { kind: 'paid', txHash: '0xt', blockNumber: 1n, final: step.final };
    default:
      return step;
  }
}
