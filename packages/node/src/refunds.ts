import type {
  CancelRefundResponse,
  CreateRefundResponse,
  ListRefundsResponse,
  NewRefundClaimLinkResponse,
} from './generated/openapi.js';
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

  /**
   * Cancels a refund awaiting its address or ready to send: its claim link stops working and its
   * amount can be refunded again. Once its transfer is seen, a PaydeskValidationError naming
   * `not_cancelable`. Safe to retry (one idempotency key per call): a retry answers the canceled refund.
   */
  async cancel(invoiceId: string, refundId: string, options: CreateOptions = {}): Promise<Refund> {
    checkId('refunds.cancel', invoiceId);
    checkRefundId('refunds.cancel', refundId);
    const { idempotencyKey, ...requestOptions } = options;
    const call = {
      ...operations.cancelRefund,
      params: { invoice: invoiceId, refund: refundId },
      idempotencyKey,
    };
    return (await this.#send<CancelRefundResponse>(call, requestOptions)).data.refund;
  }

  /**
   * A new `claim_url` for a refund whose payer lost the link (only while `awaiting_address`, else a
   * PaydeskValidationError naming `not_awaiting_address`); the old link stops working.
   */
  async newClaimLink(invoiceId: string, refundId: string, options: CreateOptions = {}): Promise<Refund> {
    checkId('refunds.newClaimLink', invoiceId);
    checkRefundId('refunds.newClaimLink', refundId);
    const { idempotencyKey, ...requestOptions } = options;
    const params = { invoice: invoiceId, refund: refundId };
    const call = { ...operations.newRefundClaimLink, params, idempotencyKey };
    return (await this.#send<NewRefundClaimLinkResponse>(call, requestOptions)).data.refund;
  }
}

function checkRefundId(method: string, id: string) {
  if (typeof id !== 'string' || id === '')
    throw new TypeError(`${method}(…, refundId): expected a refund id (ref_…)`);
}

function checkId(method: string, id: string) {
  if (typeof id !== 'string' || id === '')
    throw new TypeError(`${method}(invoiceId): expected an invoice id (inv_…)`);
}
