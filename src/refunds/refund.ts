import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { noControlCharacters } from '../http/validation.js';
import { amountFormat } from '../invoices/invoice.js';
import { formatInCurrency } from '../invoices/pricing.js';
import { LivemodeSchema } from '../networks/livemode.js';
import { REFUND_STATUSES, type RefundRow } from './refund.table.js';

export const MAX_REASON_LENGTH = 500;

/**
 * The fields of a new refund and their rules (contract §18, §22), defined once: the merchant API's
 * body schema, and what the dashboard's "Refund" form is checked against (app.checkFields), so a value
 * is refused alike, by the same rule, whichever surface it comes through.
 */
export const NewRefundSchema = Type.Object(
  {
    amount: Type.Optional(
      nullable(
        Type.String({
          format: amountFormat.name,
          description:
            'In the invoice currency, with its decimals; at most what was paid and not yet refunded (rule `exceeds_paid`). Default: all of that. To refund only an over-payment, send the over-paid part (`amount_paid` less `amount`)',
          examples: ['5.00'],
        }),
      ),
    ),
    reason: Type.Optional(
      nullable(
        Type.String({
          minLength: 1,
          maxLength: MAX_REASON_LENGTH,
          format: noControlCharacters.name,
          description: 'Why, for your records (not shown to the payer)',
          examples: ['Order 42 returned'],
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const RefundSchema = Type.Object(
  {
    id: Type.String({ examples: ['ref_4gT8qLz2NwX7bVc9Rm3Kp5Yd'] }),
    invoice_id: Type.String(),
    amount: Type.String({
      description:
        "In the invoice currency, with its decimals (a token invoice's unrefunded rest keeps its own)",
      examples: ['10.00'],
    }),
    currency: Type.String({ description: 'The invoice currency', examples: ['USDT'] }),
    livemode: LivemodeSchema,
    reason: nullable(Type.String({ description: 'As given at creation; null when none' })),
    status: StringEnum(REFUND_STATUSES, {
      description:
        '`awaiting_address` (the payer has not used the claim link yet), `ready` (the merchant can send it), `sent` (its transfer is seen, not yet deep enough), `confirmed` (the transfer is final) or `canceled`',
    }),
    claim_url: nullable(
      Type.String({
        format: 'uri',
        description:
          'The single-use page where the payer chooses a method and gives an address. Shown once, in the answer that creates the refund (the link is stored only as a hash); null afterwards',
      }),
    ),
    network: nullable(Type.String({ description: 'The network the payer chose; null until then' })),
    address: nullable(Type.String({ description: "The payer's address on that network; null until then" })),
    tx_hash: nullable(Type.String({ description: 'The transfer that paid the refund; null until seen' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Refund', title: 'Refund' },
);

/** The one place a refund row becomes its API shape. `claimUrl` only in the answer that made it. */
export function toRefund(row: RefundRow, rated: boolean, claimUrl: string | null = null) {
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    amount: formatInCurrency(row.amount, row.currency, rated),
    currency: row.currency,
    livemode: row.livemode,
    reason: row.reason,
    status: row.status,
    claim_url: claimUrl,
    network: row.network,
    address: row.address,
    tx_hash: row.tx_hash,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type Refund = ReturnType<typeof toRefund>;
