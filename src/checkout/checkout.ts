import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { INVOICE_STATUSES } from '../invoices/invoice.js';
import { fromUnits, toUnits } from '../invoices/money.js';
import type { CheckoutRow } from './repository.js';

/** The public JSON of `GET /pay/{id}/status` (contract §12), and nothing else. */
export const PublicStatusSchema = Type.Object(
  {
    id: Type.String(),
    status: StringEnum(INVOICE_STATUSES),
    amount: Type.String({ examples: ['10.00'] }),
    amount_paid: Type.String({ examples: ['0.00'] }),
    currency: Type.String({ examples: ['USDT'] }),
    network: Type.String({ examples: ['sandbox'] }),
    pay_address: Type.String(),
    payment_expires_at: Timestamp,
    paid_at: nullable(Timestamp),
  },
  { additionalProperties: false },
);

export function toPublicStatus(row: CheckoutRow) {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    amount_paid: fromUnits(toUnits(row.amount_paid)),
    currency: row.currency,
    network: row.network,
    pay_address: row.pay_address,
    payment_expires_at: row.payment_expires_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
  };
}

/** The five views of the page (contract §12). */
export type ViewState = 'waiting' | 'detected' | 'paid' | 'expired' | 'failed';

/**
 * Which view the payer sees. A payment seen but not confirmed holds the invoice open (contract §9),
 * so it is `detected` even past the deadline. An open invoice past its deadline with nothing holding
 * it is shown as expired at once: the expiry worker gets to it within seconds, and the payer must not
 * be invited to pay in between.
 */
export function viewState(row: CheckoutRow, now: Date): ViewState {
  if (row.status !== 'pending') return row.status;
  if (row.awaiting_confirmation) return 'detected';
  return now.getTime() > row.payment_expires_at.getTime() ? 'expired' : 'waiting';
}

/**
 * The version of what the page shows, as a strong ETag: it changes with every write to the invoice
 * (observe() moves updated_at on each change, a payment seen included), when the deadline turns the
 * view to expired, and with any field shown, should two writes ever share a millisecond.
 */
export function versionTag(row: CheckoutRow, state: ViewState): string {
  const shown = [
    row.updated_at.toISOString(),
    state,
    row.failure_reason,
    JSON.stringify(toPublicStatus(row)),
  ];
  return `"${createHash('sha256').update(shown.join('|')).digest('base64url').slice(0, 22)}"`;
}

/** What is still due: the amount less confirmed payments, never below zero. */
export function amountDue(row: CheckoutRow): string {
  const due = toUnits(row.amount) - toUnits(row.amount_paid);
  return fromUnits(due > 0n ? due : 0n);
}

/** RFC 9110 §13.1.2: If-None-Match matches on `*` or any listed tag, compared weakly. */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}
