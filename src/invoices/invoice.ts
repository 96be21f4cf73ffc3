import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { explainedFormat } from '../http/validation.js';
import { formatMoney, money, parseInvoiceAmount } from '../money/money.js';
import type { InvoiceRow } from './invoice.table.js';
import { INVOICE_STATUSES } from './status.js';

export const MAX_ORDER_ID_LENGTH = 120;
export const MAX_METADATA_KEYS = 20;

/** An invoice amount (contract §4), explained rule by rule. */
export const amountFormat = explainedFormat('amount', parseInvoiceAmount);

/** `status` of the list: one status, or several separated by commas. */
export const statusListFormat = explainedFormat('status-list', (value, field) =>
  value.split(',').every((s) => (INVOICE_STATUSES as readonly string[]).includes(s))
    ? { ok: true }
    : {
        ok: false,
        rule: 'enum',
        message: `${field} must be one or more of ${INVOICE_STATUSES.join(', ')}, separated by commas`,
      },
);

export const InvoiceSchema = Type.Object(
  {
    id: Type.String({ examples: ['inv_4gT8qLz2NwX7bVc9Rm3Kp5Yd'] }),
    project_id: Type.String(),
    status: StringEnum(INVOICE_STATUSES),
    amount: Type.String({ description: 'Decimal string with exactly two decimals', examples: ['10.50'] }),
    currency: Type.String({ examples: ['USDT'] }),
    network: Type.String({ examples: ['sandbox'] }),
    order_id: Type.Optional(Type.String({ description: 'Present only when one was given at creation' })),
    metadata: Type.Record(Type.String(), Type.String()),
    payment_url: Type.String({ format: 'uri', description: 'The hosted payment page for the payer' }),
    redirect_url: nullable(
      Type.String({
        format: 'uri',
        description: 'Where the paid view sends the payer back; null when not given',
      }),
    ),
    cancel_url: nullable(
      Type.String({ format: 'uri', description: 'Where "Cancel and return" goes; null when not given' }),
    ),
    pay_address: Type.String({ description: 'Where the payer sends funds; unique to the invoice' }),
    amount_paid: Type.String({
      description: 'Sum of confirmed payments, a decimal string ("0.00" at first)',
      examples: ['0.00'],
    }),
    paid_late: Type.Boolean({ description: 'True when paid within 24 h after expiry' }),
    failure_reason: Type.Union([Type.Literal('underpaid'), Type.Literal('payment_reversed'), Type.Null()], {
      description: 'Why the invoice failed; null unless status is failed',
    }),
    payment_expires_at: Timestamp,
    paid_at: nullable(Timestamp),
    tx_hash: nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Invoice', title: 'Invoice' },
);

/** The one place an invoice row becomes its API shape: dates to RFC 3339, internal columns dropped. */
export function toInvoice(row: InvoiceRow, publicBaseUrl: string) {
  return {
    id: row.id,
    project_id: row.project_id,
    status: row.status,
    amount: formatMoney(money(row.amount)),
    currency: row.currency,
    network: row.network,
    ...(row.order_id === null ? {} : { order_id: row.order_id }),
    metadata: row.metadata,
    payment_url: `${publicBaseUrl}/pay/${row.id}`,
    redirect_url: row.redirect_url,
    cancel_url: row.cancel_url,
    pay_address: row.pay_address,
    amount_paid: formatMoney(money(row.amount_paid)),
    paid_late: row.paid_late,
    failure_reason: row.failure_reason,
    payment_expires_at: row.payment_expires_at.toISOString(),
    paid_at: row.paid_at?.toISOString() ?? null,
    tx_hash: row.tx_hash,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type Invoice = ReturnType<typeof toInvoice>;
