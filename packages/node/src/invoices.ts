import type { CreateInvoiceResponse, GetInvoiceResponse, ListInvoicesResponse } from './generated/openapi.js';
import { operations } from './generated/openapi.js';
import { type InvoiceList, invoiceList } from './list.js';
import type { Call } from './transport.js';
import type {
  CreateOptions,
  Invoice,
  InvoiceCreateParams,
  InvoiceListParams,
  InvoicePage,
  RequestOptions,
} from './types.js';

export type Send = <T>(call: Call, options?: RequestOptions) => Promise<T>;

/** `paydesk.invoices`: create, retrieve and list the project's invoices. */
export class Invoices {
  readonly #send: Send;

  constructor(send: Send) {
    this.#send = send;
  }

  /**
   * Creates an invoice in the project's currency, payable with every method the project accepts (or
   * only `network`'s, when given). Safe to retry: every attempt of one call carries one idempotency
   * key (yours, or one generated for the call).
   */
  async create(params: InvoiceCreateParams, options: CreateOptions = {}): Promise<Invoice> {
    const { idempotencyKey, ...requestOptions } = options;
    const call = { ...operations.createInvoice, body: params, idempotencyKey };
    return (await this.#send<CreateInvoiceResponse>(call, requestOptions)).data;
  }

  /** One invoice of this project by its id (inv_…); PaydeskNotFoundError when there is none. */
  async retrieve(id: string, options?: RequestOptions): Promise<Invoice> {
    if (typeof id !== 'string' || id === '') {
      throw new TypeError('invoices.retrieve(id): expected an invoice id (inv_…)');
    }
    const call = { ...operations.getInvoice, params: { invoice: id } };
    return (await this.#send<GetInvoiceResponse>(call, options)).data;
  }

  /**
   * Newest first. `await` it for one page (`data`, `pagination`); iterate it with `for await` for
   * every invoice from that page on, fetched a page (`limit`, default 20) at a time.
   */
  list(params: InvoiceListParams = {}, options?: RequestOptions): InvoiceList {
    const { status, order_id, limit } = params;
    const statuses = typeof status === 'string' ? status : status?.join(',');
    const fetchPage = async (page: number): Promise<InvoicePage> => {
      const query = { status: statuses, order_id, limit, page };
      const res = await this.#send<ListInvoicesResponse>({ ...operations.listInvoices, query }, options);
      return { data: res.data, pagination: res.meta.pagination };
    };
    return invoiceList(fetchPage, params.page ?? 1);
  }
}
