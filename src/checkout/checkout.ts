import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import {
  confirmedTotal,
  confirming,
  type InvoiceState,
  isTerminal,
  outstanding,
} from '../invoices/lifecycle.js';
import { formatPaid } from '../invoices/pricing.js';
import { INVOICE_STATUSES } from '../invoices/status.js';
import { formatAmount, formatUnits, money, ZERO } from '../money/money.js';
import type { CheckoutRow } from './repository.js';

/** The public JSON of `GET /pay/{id}/status` (contract §12), and nothing else. */
export const PublicStatusSchema = Type.Object(
  {
    id: Type.String(),
    status: StringEnum(INVOICE_STATUSES),
    amount: Type.String({ examples: ['10.00'] }),
    amount_paid: Type.String({ examples: ['0.00'] }),
    currency: Type.String({ examples: ['USDT'] }),
    network: nullable(Type.String({ examples: ['sandbox'] })),
    pay_address: nullable(Type.String()),
    payment_expires_at: Timestamp,
    paid_at: nullable(Timestamp),
    payment_methods: Type.Array(
      Type.Object(
        {
          network: Type.String(),
          currency: Type.String(),
          pay_address: Type.String(),
          amount_due: Type.String({ examples: ['10.000000'] }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The invoice as its payer sees it now: `state` is the lifecycle's, at the moment of the request. */
export function toPublicStatus(row: CheckoutRow, state: InvoiceState) {
  return {
    id: row.id,
    status: state.status,
    // The price and what arrived in the invoice's own currency (at its locked rate, when it has one).
    amount: formatAmount(money(row.amount), row.currency),
    amount_paid: formatPaid(confirmedTotal(state), row),
    currency: row.currency,
    network: row.network,
    pay_address: row.pay_address,
    payment_expires_at: state.expiresAt.toISOString(),
    paid_at: state.paidAt?.toISOString() ?? null,
    // What is still to be sent, in each token (at par); nothing once the invoice is paid or failed.
    payment_methods: row.payment_methods.map((m) => ({
      network: m.network,
      currency: m.currency,
      pay_address: m.pay_address,
      amount_due: formatUnits(isTerminal(state.status) ? ZERO : outstanding(state), Math.min(m.decimals, 6)),
    })),
  };
}

/** The five views of the page (contract §12). */
export type ViewState = 'waiting' | 'detected' | 'paid' | 'expired' | 'failed';

/**
 * Which view the payer sees: the invoice's status as the lifecycle has it at this moment (so a view
 * never waits on the expiry worker, and never contradicts the rules: a part-paid invoice past its
 * deadline is failed, not expired), and `detected` while a payment seen is still confirming, on an
 * open invoice or within the late window, so the payer is not asked to pay again.
 */
export function viewOf(state: InvoiceState): ViewState {
  if (state.status === 'paid' || state.status === 'failed') return state.status;
  if (confirming(state)) return 'detected';
  return state.status === 'pending' ? 'waiting' : 'expired';
}

/**
 * The version of what the page shows, as a strong ETag: it changes with every write to the invoice
 * (observe() moves updated_at on each change, a payment seen included), when the deadline turns the
 * view, and with any field shown, should two writes ever share a millisecond.
 */
export function versionTag(
  row: CheckoutRow,
  view: ViewState,
  status: ReturnType<typeof toPublicStatus>,
): string {
  const shown = [row.updated_at.toISOString(), view, JSON.stringify(status)];
  return `"${createHash('sha256').update(shown.join('|')).digest('base64url').slice(0, 22)}"`;
}
