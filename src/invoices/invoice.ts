import { Type } from '@sinclair/typebox';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import { explainedFormat } from '../http/validation.js';
import {
  amountText,
  formatMoney,
  money,
  moneyText,
  parseInvoiceAmount,
  remainder,
  sum,
  unitsText,
} from '../money/money.js';
import { LivemodeSchema } from '../networks/livemode.js';
import type { InvoiceRow } from './invoice.table.js';
import { formatInCurrency } from './pricing.js';
import { INVOICE_STATUSES, type PaymentStatus } from './status.js';

/** How the API names a payment's status: a payment still confirming is `detected`. */
export const PAYMENT_VIEW_STATUSES = [
  'detected',
  'confirmed',
  'reversed',
  'unaccepted',
  'dust',
  'after_close',
] as const;
const viewStatus = (s: PaymentStatus): (typeof PAYMENT_VIEW_STATUSES)[number] =>
  s === 'pending' ? 'detected' : s;

/** A payment as the invoice object lists it: what the reads select (repository.ts) and observe() holds. */
export interface PaymentRecord {
  network: string;
  currency: string;
  tx_hash: string;
  /** A decimal string in the token. */
  amount: string;
  status: PaymentStatus;
  seen_at: Date;
}

/** A refund as the invoice object lists it (contract §18): what the reads select (repository.ts refundsOf). */
export interface RefundRecord {
  id: string;
  /** In the invoice currency, as numeric text. */
  amount: string;
  status: string;
  network: string | null;
  address: string | null;
  tx_hash: string | null;
  created_at: Date;
}

export const MAX_ORDER_ID_LENGTH = 120;
export const MAX_DESCRIPTION_LENGTH = 500;
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

const PaymentMethodOffer = Type.Object({
  network: Type.String({ examples: ['tron'] }),
  currency: Type.String({ description: 'The token', examples: ['USDT'] }),
  pay_address: Type.String({ description: 'Where to send it; one address serves every EVM network' }),
  amount_due: Type.String({
    description: "What is still due in this token, with the token's decimals (at most 6)",
    examples: ['10.500000'],
  }),
});

const RateSchema = Type.Object(
  {
    source: Type.String({ description: 'The rate source that priced the invoice', examples: ['kraken'] }),
    pair: Type.String({
      description: 'What the source quoted: "USDT/EUR" is the price of one USDT in euros',
      examples: ['USDT/EUR'],
    }),
    value: Type.String({ description: 'An exact decimal string', examples: ['0.9245'] }),
    fetched_at: Timestamp,
  },
  {
    description:
      "The exchange rate locked when the invoice was made, kept for its lifetime and late window; every method's `amount_due` follows from it (the invoice's tokens at par with each other). Null for USD, USDT and USDC invoices.",
  },
);

const REFUND_VIEW_STATUSES = ['awaiting_address', 'ready', 'sent', 'confirmed', 'canceled'] as const;

const RefundSummary = Type.Object({
  id: Type.String({ examples: ['ref_4gT8qLz2NwX7bVc9Rm3Kp5Yd'] }),
  amount: Type.String({ description: 'In the invoice currency', examples: ['5.00'] }),
  status: StringEnum(REFUND_VIEW_STATUSES),
  network: nullable(Type.String({ description: 'Chosen by the payer on the claim page' })),
  address: nullable(Type.String({ description: "The payer's refund address" })),
  tx_hash: nullable(Type.String({ description: 'The transfer that paid it, once seen' })),
  created_at: Timestamp,
});

const PaymentSchema = Type.Object({
  network: Type.String({ examples: ['tron'] }),
  currency: Type.String({ examples: ['USDT'] }),
  tx_hash: Type.String(),
  amount: Type.String({ description: 'In the token, as a decimal string', examples: ['10.50'] }),
  status: StringEnum(PAYMENT_VIEW_STATUSES, {
    description:
      '`detected` (still confirming), `confirmed`, `reversed` (dropped by the chain), `unaccepted` (a token or network this invoice does not accept: never credited), `dust` (below PAYDESK_DUST_PERCENT of the amount and not completing the invoice: never credited on its own, it joins the payment that completes the invoice) or `after_close` (arrived once the invoice was paid, failed, or expired past its late window: never credited, refundable once final)',
  }),
  created_at: Timestamp,
});

export const InvoiceSchema = Type.Object(
  {
    id: Type.String({ examples: ['inv_4gT8qLz2NwX7bVc9Rm3Kp5Yd'] }),
    project_id: Type.String(),
    status: StringEnum(INVOICE_STATUSES),
    livemode: LivemodeSchema,
    amount: Type.String({
      description:
        "Decimal string with the currency's decimals: two, none for currencies without a minor unit (JPY)",
      examples: ['10.50'],
    }),
    currency: Type.String({
      description:
        'What `amount` and `amount_paid` are in: USD, USDT, USDC, or a currency priced at `rate` (EUR, GBP, JPY …)',
      examples: ['USDT'],
    }),
    rate: nullable(RateSchema),
    network: nullable(
      Type.String({
        description:
          'The network of the one payment method; with several, null until the first payment, then its network',
        examples: ['sandbox'],
      }),
    ),
    order_id: Type.Optional(Type.String({ description: 'Present only when one was given at creation' })),
    description: nullable(
      Type.String({
        description: 'What the payer is paying for, shown on the payment page; null when not given',
      }),
    ),
    metadata: Type.Record(Type.String(), Type.String()),
    payment_link_id: nullable(
      Type.String({
        description:
          'The payment link a payer made this invoice on (contract §25); null for invoices made by the API',
        examples: ['plink_4gT8qLz2NwX7bVc9Rm3Kp5Yd'],
      }),
    ),
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
    pay_address: nullable(
      Type.String({
        description:
          'Where the payer sends funds (unique to the invoice); with several methods, null until the first payment, then its address',
      }),
    ),
    payment_methods: Type.Array(PaymentMethodOffer, {
      description: 'Every way to pay this invoice (contract §15)',
    }),
    payments: Type.Array(PaymentSchema, { description: 'Every payment seen, in the order seen' }),
    amount_paid: Type.String({
      description:
        'Sum of confirmed payments in the invoice currency, a decimal string ("0.00" at first); at a locked rate, their worth at that rate, rounded down',
      examples: ['0.00'],
    }),
    amount_refunded: Type.String({
      description:
        'Sum of the refunds not canceled (contract §18), in the invoice currency ("0.00" at first). The status does not change: a refunded invoice stays `paid`',
      examples: ['0.00'],
    }),
    refunds: Type.Array(RefundSummary, {
      description:
        "The invoice's refunds, oldest first (canceled ones included); the whole refund object, claim link aside, is GET /v1/merchant/invoices/{id}/refunds's",
    }),
    paid_late: Type.Boolean({ description: 'True when paid within 24 h after expiry' }),
    // A type list, not an anyOf: the response serializer writes a type list itself, but settles an
    // anyOf by running the validator on every branch, for every invoice it writes (issue 37).
    failure_reason: Type.Unsafe<'underpaid' | 'payment_reversed' | null>({
      type: ['string', 'null'],
      enum: ['underpaid', 'payment_reversed', null],
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

/**
 * The columns an invoice's API shape is made of (toInvoice reads these and no other): what a get and
 * a list page read, and nothing else. The rest of the row (deposit address indexes, payout, schedule,
 * the payer's e-mail…) is the server's own and never leaves the database for an answer.
 */
export const INVOICE_VIEW_COLUMNS = [
  'id',
  'project_id',
  'status',
  'livemode',
  'amount',
  'currency',
  'rate',
  'token_amount',
  'network',
  'order_id',
  'description',
  'metadata',
  'payment_link_id',
  'redirect_url',
  'cancel_url',
  'pay_address',
  'payment_methods',
  'amount_paid',
  'amount_refunded',
  'paid_late',
  'failure_reason',
  'payment_expires_at',
  'paid_at',
  'tx_hash',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof InvoiceRow>;

export type InvoiceViewRow = Pick<InvoiceRow, (typeof INVOICE_VIEW_COLUMNS)[number]>;

/**
 * What is still due in each method's token, as a decimal: the amount less the accepted payments
 * standing (confirmed or confirming), at par; nothing once the invoice is paid or failed. With no
 * payment, the token amount as read (the usual case: no bigint is made on that read).
 */
function amountDue(row: InvoiceViewRow, payments: readonly PaymentRecord[]): string {
  if (row.status === 'paid' || row.status === 'failed') return '0';
  if (payments.length === 0) return row.token_amount;
  const standing = payments.filter((p) => p.status === 'pending' || p.status === 'confirmed');
  return formatMoney(remainder(money(row.token_amount), sum(standing.map((p) => money(p.amount)))));
}

/**
 * The one place an invoice row becomes its API shape: dates to RFC 3339, internal columns dropped.
 * `payments` are the invoice's own, in the order seen.
 */
export function toInvoice(
  row: InvoiceViewRow,
  publicBaseUrl: string,
  payments: readonly PaymentRecord[],
  refunds: readonly RefundRecord[],
) {
  const inCurrency = (amount: string) => formatInCurrency(amount, row.currency, row.rate !== null);
  const due = amountDue(row, payments);
  return {
    id: row.id,
    project_id: row.project_id,
    status: row.status,
    livemode: row.livemode,
    amount: amountText(row.amount, row.currency),
    currency: row.currency,
    rate: row.rate,
    network: row.network,
    ...(row.order_id === null ? {} : { order_id: row.order_id }),
    description: row.description,
    metadata: row.metadata,
    payment_link_id: row.payment_link_id,
    payment_url: `${publicBaseUrl}/pay/${row.id}`,
    redirect_url: row.redirect_url,
    cancel_url: row.cancel_url,
    pay_address: row.pay_address,
    payment_methods: row.payment_methods.map((m) => ({
      network: m.network,
      currency: m.currency,
      pay_address: m.pay_address,
      amount_due: unitsText(due, Math.min(m.decimals, 6)),
    })),
    payments: payments.map((p) => ({
      network: p.network,
      currency: p.currency,
      tx_hash: p.tx_hash,
      amount: formatMoney(money(p.amount)),
      status: viewStatus(p.status),
      created_at: p.seen_at.toISOString(),
    })),
    // Stored in the invoice currency (observe.ts), rounded down to its decimals when priced at a rate.
    amount_paid: row.rate ? amountText(row.amount_paid, row.currency) : moneyText(row.amount_paid),
    amount_refunded: inCurrency(row.amount_refunded),
    refunds: refunds.map((r) => ({
      id: r.id,
      amount: inCurrency(r.amount),
      status: r.status as (typeof REFUND_VIEW_STATUSES)[number],
      network: r.network,
      address: r.address,
      tx_hash: r.tx_hash,
      created_at: r.created_at.toISOString(),
    })),
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
