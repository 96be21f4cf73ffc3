import type { CreateRefundResponse, ListRefundsResponse } from './generated/openapi.js';
import { operations } from './generated/openapi.js';
import type { Send } from './invoices.js';
import type { Refund, RefundCreateParams, RequestOptions } from './types.js';

/** `paydesk.refunds`: refund a paid or failed invoice, and list an invoice's refunds (contract §18). */
export class Refunds {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /**
   * Refunds (part of) what an invoice was paid: all that is left without `amount`. Send the payer the
   * refund's `claim_url`, shown only in this answer. Not retried unless you ask (`maxRetries`): a
   * retry after a lost answer would make a second refund, and the first one's link is not shown again.
   */
  async create(
    invoiceId: string,
    params: RefundCreateParams = {},
    options: RequestOptions = {},
  ): Promise<Refund> {
    checkId('refunds.create', invoiceId);
    const call = { ...operations.createRefund, params: { invoice: invoiceId }, body: params };
    const res = await this.#send<CreateRefundResponse>(call, { maxRetries: 0, ...options });
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
