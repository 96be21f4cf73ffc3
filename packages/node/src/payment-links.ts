import type {
  CreatePaymentLinkResponse,
  GetPaymentLinkResponse,
  ListPaymentLinkInvoicesResponse,
  ListPaymentLinksResponse,
  UpdatePaymentLinkResponse,
} from './generated/openapi.js';
import { operations } from './generated/openapi.js';
import type { Send } from './invoices.js';
import type {
  InvoicePage,
  PaymentLink,
  PaymentLinkCreateParams,
  PaymentLinkPage,
  PaymentLinkUpdateParams,
  RequestOptions,
} from './types.js';

/**
 * `paydesk.paymentLinks`: pages to share where a payer makes an invoice by pressing "Pay" (contract
 * §25). Opening a link makes nothing; each invoice it makes carries its `payment_link_id`.
 */
export class PaymentLinks {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /** A fixed `amount`, or none and the payer chooses within `min_amount`/`max_amount`; share its `url`. */
  async create(params: PaymentLinkCreateParams, options?: RequestOptions): Promise<PaymentLink> {
    const call = { ...operations.createPaymentLink, body: params };
    return (await this.#send<CreatePaymentLinkResponse>(call, options)).data;
  }

  async retrieve(id: string, options?: RequestOptions): Promise<PaymentLink> {
    checkId('paymentLinks.retrieve', id);
    const call = { ...operations.getPaymentLink, params: { link: id } };
    return (await this.#send<GetPaymentLinkResponse>(call, options)).data;
  }

  /** Deactivate (`{ active: false }`) or reactivate it, or change its words, limits and expiry. */
  async update(id: string, params: PaymentLinkUpdateParams, options?: RequestOptions): Promise<PaymentLink> {
    checkId('paymentLinks.update', id);
    const call = { ...operations.updatePaymentLink, params: { link: id }, body: params };
    return (await this.#send<UpdatePaymentLinkResponse>(call, options)).data;
  }

  /** One page of the project's links, newest first. */
  async list(
    params: { limit?: number; page?: number } = {},
    options?: RequestOptions,
  ): Promise<PaymentLinkPage> {
    const res = await this.#send<ListPaymentLinksResponse>(
      { ...operations.listPaymentLinks, query: params },
      options,
    );
    return { data: res.data, pagination: res.meta.pagination };
  }

  /** One page of the invoices a link made, newest first. */
  async listInvoices(
    id: string,
    params: { limit?: number; page?: number } = {},
    options?: RequestOptions,
  ): Promise<InvoicePage> {
    checkId('paymentLinks.listInvoices', id);
    const call = { ...operations.listPaymentLinkInvoices, params: { link: id }, query: params };
    const res = await this.#send<ListPaymentLinkInvoicesResponse>(call, options);
    return { data: res.data, pagination: res.meta.pagination };
  }
}

function checkId(method: string, id: string) {
  if (typeof id !== 'string' || id === '')
    throw new TypeError(`${method}(id): expected a payment link id (plink_…)`);
}
