import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { newEvent } from '../events/body.js';
import { insertEvents } from '../events/repository.js';
import { ApiError } from '../http/errors.js';
import { formatMoney, formatUnits, money } from '../money/money.js';
import { REFUND_TOKEN_DECIMALS } from './amounts.js';
import { type RefundAction, type RefundOutcome, type RefusedRule, stateOf, transition } from './lifecycle.js';
import * as locks from './lock.repository.js';
import { toRefund } from './refund.js';
import { addRefunded } from './repository.js';

/**
 * The one code path that changes a refund (contract §22): lock the refunds (and, where money moves,
 * the invoice first), re-read them under the lock, run the pure state machine, and write the new row,
 * the invoice's refunded total and the event (the outbox) in the caller's transaction. The claim
 * page, the merchant's cancel and new link, and every chain watcher only say what happened; what it
 * does to a refund is decided here, from the row as it stands, never from a copy read earlier.
 */

export type LockedRefund = locks.LockedRefund;

export interface Changed {
  before: LockedRefund;
  after: LockedRefund;
  outcome: RefundOutcome;
}

export interface ChangeContext {
  now: Date;
  /** The token's decimals, for `token_amount` in event bodies; at most REFUND_TOKEN_DECIMALS count. */
  decimals?: (refund: LockedRefund) => number | undefined;
}

/** What to do with each locked refund; a refund left out is not changed. */
export type Plan = (
  locked: LockedRefund[],
  tx: Transaction<Database>,
) =>
  | Iterable<readonly [LockedRefund, RefundAction]>
  | Promise<Iterable<readonly [LockedRefund, RefundAction]>>;

/** The same action for every refund locked. */
export const each =
  (action: RefundAction): Plan =>
  (locked) =>
    locked.map((r) => [r, action] as const);

export async function changeRefunds(
  tx: Transaction<Database>,
  target: locks.RefundTarget,
  plan: Plan,
  ctx: ChangeContext,
): Promise<Changed[]> {
  // A cancel moves money (the invoice's amount_refunded): the invoice is locked before the refund,
  // the order refund creates take, so the two never deadlock. A watcher moves no money and locks
  // only refunds, after the invoices its own payments locked.
  if (target.kind === 'one') await locks.lockInvoiceOfRefund(tx, target.projectId, target.refundId);
  const locked = await locks.lockRefunds(tx, target);
  const changed: Changed[] = [];
  for (const [before, action] of await plan(locked, tx)) {
    const outcome = transition(stateOf(before), action, ctx.now);
    if (outcome.refused) throw refusal(outcome.refused, before.status);
    if (!outcome.changed) continue;
    const saved = await locks.saveRefund(tx, before.id, outcome.state);
    const after = { ...before, ...saved };
    if (outcome.released) {
      await addRefunded(tx, before.invoice_id, `-${formatMoney(money(before.amount))}`, ctx.now);
    }
    if (outcome.event) await announce(tx, after, outcome.event, ctx);
    changed.push({ before, after, outcome });
  }
  return changed;
}

async function announce(
  tx: Transaction<Database>,
  refund: LockedRefund,
  event: NonNullable<RefundOutcome['event']>,
  ctx: ChangeContext,
) {
  const decimals = ctx.decimals?.(refund) ?? REFUND_TOKEN_DECIMALS;
  const data = {
    refund: toRefund(refund, refund.rate !== null),
    previous_status: event.previous,
    token: refund.token,
    token_amount: formatUnits(money(refund.token_amount ?? '0'), Math.min(decimals, REFUND_TOKEN_DECIMALS)),
  };
  await insertEvents(tx, [
    newEvent(refund.project_id, refund.invoice_id, event.type, data, ctx.now, refund.livemode),
  ]);
}

const REFUSALS: Record<RefusedRule, (status: string) => string> = {
  not_cancelable: (status) =>
    `This refund is ${status}; only a refund awaiting its address or ready to send can be canceled (once its transfer is seen, it is on its way)`,
  not_awaiting_address: (status) =>
    `This refund is ${status}; a new claim link is only made while the payer has not given an address`,
};

function refusal(rule: RefusedRule, status: string): ApiError {
  return ApiError.validation([{ in: 'path', field: 'refund', rule, message: REFUSALS[rule](status) }]);
}
