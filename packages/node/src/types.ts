import type * as api from './generated/openapi.js';

/** An invoice (contract §5 and §9). */
export type Invoice = api.Invoice;
export type InvoiceStatus = Invoice['status'];

/**
 * One way to pay an invoice (contract §15): a token on a network, the address to send it to, and
 * what is still due in it. An invoice offers every method its project accepts, or only those of the
 * `network` it was created with.
 */
export type InvoicePaymentMethod = Invoice['payment_methods'][number];

/**
 * A payment an invoice has seen, on whichever network and token; `unaccepted`, `dust` and `after_close`
 * ones are never credited on their own.
 */
export type Payment = Invoice['payments'][number];

/**
 * What `invoices.create()` takes: `amount` as a decimal string ("10.50"), never a number; `network`
 * to offer only that network's methods.
 */
export type InvoiceCreateParams = api.CreateInvoiceBody;

/** Filters and paging of `invoices.list()`; `status` may be one status or several. */
export type InvoiceListParams = Omit<api.ListInvoicesQuery, 'status'> & {
  status?: InvoiceStatus | readonly InvoiceStatus[];
};

/** A refund of an invoice (contract §18). */
export type Refund = api.Refund;
export type RefundStatus = Refund['status'];

/** What `refunds.create()` takes: `amount` in the invoice currency as a decimal string, and a `reason`. */
export type RefundCreateParams = api.CreateRefundBody;

/** A payment link (contract §25). */
export type PaymentLink = api.PaymentLink;
/** What `paymentLinks.create()` takes: amounts as decimal strings, never numbers. */
export type PaymentLinkCreateParams = api.CreatePaymentLinkBody;
export type PaymentLinkUpdateParams = api.UpdatePaymentLinkBody;

/** The project and the API key in use, from `me()`. */
export type Me = api.GetMeResponse['data'];

export type Pagination = api.ListInvoicesResponse['meta']['pagination'];

/** One page of `invoices.list()`. */
export interface InvoicePage {
  data: Invoice[];
  pagination: Pagination;
}

/** One page of `paymentLinks.list()`. */
export interface PaymentLinkPage {
  data: PaymentLink[];
  pagination: Pagination;
}

/** Per-call settings; each overrides the client's. */
export interface RequestOptions {
  timeoutMs?: number;
  maxRetries?: number;
}

export interface CreateOptions extends RequestOptions {
  /**
   * Makes the create safe to repeat: the same key with the same parameters returns the first invoice
   * or refund (kept 24 h). Without one the client generates a key for this call, reused by its retries.
   */
  idempotencyKey?: string;
}
