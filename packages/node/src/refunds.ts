import type { CreateRefundResponse, ListRefundsResponse } from './generated/openapi.js';
import { operations } from './generated/openapi.js';
import type { Send } from './invoices.js';
import type { CreateOptions, Refund, RefundCreateParams, RequestOptions } from './types.js';

/** `paydesk.refunds`: refund a paid or failed invoice, and list an invoice's refunds (contract §18). */
export class Refunds {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /**
   * Refunds (part of) what an invoice was paid: all that is left without `amount`. Send the payer the
   * refund's `claim_url`. Safe to retry, as `invoices.create` is: every attempt of one call carries
   * one idempotency key (yours, or one generated for the call), and a retry answers the refund the
   * first attempt made, with a new claim link while the payer has not used it (the lost one stops
   * working).
   */
  async create(
    invoiceId: string,
    params: RefundCreateParams = {},
    options: CreateOptions = {},
  ): Promise<Refund> {
    checkId('refunds.create', invoiceId);
    const { idempotencyKey, ...requestOptions } = options;
    const call = { ...operations.createRefund, params: { invoice: invoiceId }, body: params, idempotencyKey };
    const res = await this.#send<CreateRefundResponse>(call, requestOptions);
    return res.data.refund;
  }

  /** The invoice's refunds, oldest first; their `claim_url` is null (it is shown once, at creation). */
  async list(invoiceId: string, options?: RequestOptions): Promise<Refund[]> {
    checkId('refunds.list', invoiceId);
    const call = { ...operations.listRefunds, params: { invoice: invoiceId } };
    return (await this.#send<ListRefundsResponse>(call, options)).data;
  }
}

function checkId(method: string, id: string) {
  if (typeof id !== 'string' || id === '')
    throw new TypeError(`${method}(invoiceId): expected an invoice id (inv_…)`);
}
