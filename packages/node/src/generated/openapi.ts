// Generated from Paydesk's OpenAPI document by `npm run generate -w @paydesk/node`. Do not edit: a
// test regenerates it from the live server and fails on any difference.

/** Every operation of the client: its method and path template. */
export const operations = {
  getMe: { method: 'GET', path: '/v1/merchant/me' },
  listInvoices: { method: 'GET', path: '/v1/merchant/invoices' },
  createInvoice: { method: 'POST', path: '/v1/merchant/invoices' },
  getInvoice: { method: 'GET', path: '/v1/merchant/invoices/{invoice}' },
  listRefunds: { method: 'GET', path: '/v1/merchant/invoices/{invoice}/refunds' },
  createRefund: { method: 'POST', path: '/v1/merchant/invoices/{invoice}/refunds' },
  cancelRefund: { method: 'POST', path: '/v1/merchant/invoices/{invoice}/refunds/{refund}/cancel' },
  newRefundClaimLink: { method: 'POST', path: '/v1/merchant/invoices/{invoice}/refunds/{refund}/claim-link' },
  listPaymentLinks: { method: 'GET', path: '/v1/merchant/payment-links' },
  createPaymentLink: { method: 'POST', path: '/v1/merchant/payment-links' },
  getPaymentLink: { method: 'GET', path: '/v1/merchant/payment-links/{link}' },
  updatePaymentLink: { method: 'PATCH', path: '/v1/merchant/payment-links/{link}' },
  listPaymentLinkInvoices: { method: 'GET', path: '/v1/merchant/payment-links/{link}/invoices' },
} as const;

export interface ErrorEnvelope {
  success: false;
  message: string;
  error: {
    code: 'API_KEY_REQUIRED' | 'API_KEY_INVALID_FORMAT' | 'API_KEY_INVALID' | 'API_KEY_REVOKED' | 'ACCOUNT_NOT_ACTIVE' | 'PROJECT_NOT_ACTIVE' | 'VALIDATION_ERROR' | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'RATE_LIMITED' | 'INTERNAL_SERVER_ERROR';
    /** Empty for most codes; see the contract for each */
    details: {
      errors?: {
        in: 'body' | 'query' | 'path' | 'header';
        /** The field at fault, dotted for nested ones (metadata.sku) */
        field: string;
        /** A stable name for the violated rule */
        rule: string;
        /** How to fix it, in one sentence */
        message: string;
      }[];
      allowed?: string[];
      retry_after_seconds?: number;
    };
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface Invoice {
  id: string;
  project_id: string;
  status: 'pending' | 'paid' | 'expired' | 'failed';
  /** False for test money: the sandbox or a testnet (a test project, its invoices, refunds and collections); true for real money. Read-only: an invoice keeps it for its lifetime */
  livemode: boolean;
  /** Decimal string with the currency's decimals: two, none for currencies without a minor unit (JPY) */
  amount: string;
  /** What `amount` and `amount_paid` are in: USD, USDT, USDC, or a currency priced at `rate` (EUR, GBP, JPY …) */
  currency: string;
  /** The exchange rate locked when the invoice was made, kept for its lifetime and late window; every method's `amount_due` follows from it (the invoice's tokens at par with each other). Null for USD, USDT and USDC invoices. */
  rate: {
    /** The rate source that priced the invoice */
    source: string;
    /** What the source quoted: "USDT/EUR" is the price of one USDT in euros */
    pair: string;
    /** An exact decimal string */
    value: string;
    /** RFC 3339, UTC, milliseconds */
    fetched_at: string;
  } | null;
  /** The network of the one payment method; with several, null until the first payment, then its network */
  network: string | null;
  /** Present only when one was given at creation */
  order_id?: string;
  /** What the payer is paying for, shown on the payment page; null when not given */
  description: string | null;
  metadata: Record<string, string>;
  /** The payment link a payer made this invoice on (contract §25); null for invoices made by the API */
  payment_link_id: string | null;
  /** The hosted payment page for the payer */
  payment_url: string;
  /** Where the paid view sends the payer back; null when not given */
  redirect_url: string | null;
  /** Where "Cancel and return" goes; null when not given */
  cancel_url: string | null;
  /** Where the payer sends funds (unique to the invoice); with several methods, null until the first payment, then its address */
  pay_address: string | null;
  /** Every way to pay this invoice (contract §15) */
  payment_methods: {
    network: string;
    /** The token */
    currency: string;
    /** Where to send it; one address serves every EVM network */
    pay_address: string;
    /** What is still due in this token, with the token's decimals (at most 6) */
    amount_due: string;
  }[];
  /** Every payment seen, in the order seen */
  payments: {
    network: string;
    currency: string;
    tx_hash: string;
    /** In the token, as a decimal string */
    amount: string;
    /** `detected` (still confirming), `confirmed`, `reversed` (dropped by the chain), `unaccepted` (a token or network this invoice does not accept: never credited), `dust` (below PAYDESK_DUST_PERCENT of the amount and not completing the invoice: never credited on its own, it joins the payment that completes the invoice) or `after_close` (arrived once the invoice was paid, failed, or expired past its late window: never credited, refundable once final) */
    status: 'detected' | 'confirmed' | 'reversed' | 'unaccepted' | 'dust' | 'after_close';
    /** RFC 3339, UTC, milliseconds */
    created_at: string;
  }[];
  /** Sum of confirmed payments in the invoice currency, a decimal string ("0.00" at first); at a locked rate, their worth at that rate, rounded down */
  amount_paid: string;
  /** Sum of the refunds not canceled (contract §18), in the invoice currency ("0.00" at first). The status does not change: a refunded invoice stays `paid` */
  amount_refunded: string;
  /** The invoice's refunds, oldest first (canceled ones included); the whole refund object, claim link aside, is GET /v1/merchant/invoices/{id}/refunds's */
  refunds: {
    id: string;
    /** In the invoice currency */
    amount: string;
    status: 'awaiting_address' | 'ready' | 'sent' | 'confirmed' | 'canceled';
    /** Chosen by the payer on the claim page */
    network: string | null;
    /** The payer's refund address */
    address: string | null;
    /** The transfer that paid it, once seen */
    tx_hash: string | null;
    /** RFC 3339, UTC, milliseconds */
    created_at: string;
  }[];
  /** True when paid within 24 h after expiry */
  paid_late: boolean;
  /** Why the invoice failed; null unless status is failed */
  failure_reason: 'underpaid' | 'payment_reversed' | null;
  /** RFC 3339, UTC, milliseconds */
  payment_expires_at: string;
  /** RFC 3339, UTC, milliseconds */
  paid_at: string | null;
  tx_hash: string | null;
  /** RFC 3339, UTC, milliseconds */
  created_at: string;
  /** RFC 3339, UTC, milliseconds */
  updated_at: string;
}

export interface ApiKey {
  id: string;
  name: string;
  /** The last 4 characters of the secret; the secret itself is never shown again */
  last4: string;
  status: 'active' | 'revoked';
  /** RFC 3339, UTC, milliseconds */
  created_at: string;
  /** RFC 3339, UTC, milliseconds */
  last_used_at: string | null;
}

export interface Refund {
  id: string;
  invoice_id: string;
  /** In the invoice currency, with its decimals (a token invoice's unrefunded rest keeps its own) */
  amount: string;
  /** The invoice currency */
  currency: string;
  /** False for test money: the sandbox or a testnet (a test project, its invoices, refunds and collections); true for real money. Read-only: an invoice keeps it for its lifetime */
  livemode: boolean;
  /** As given at creation; null when none */
  reason: string | null;
  /** `awaiting_address` (the payer has not used the claim link yet), `ready` (the merchant can send it), `sent` (its transfer is seen, not yet deep enough), `confirmed` (the transfer is final) or `canceled` */
  status: 'awaiting_address' | 'ready' | 'sent' | 'confirmed' | 'canceled';
  /** The single-use page where the payer chooses a method and gives an address. Shown once, in the answer that creates the refund (the link is stored only as a hash); null afterwards */
  claim_url: string | null;
  /** The network the payer chose; null until then */
  network: string | null;
  /** The payer's address on that network; null until then */
  address: string | null;
  /** The transfer that paid the refund; null until seen */
  tx_hash: string | null;
  /** RFC 3339, UTC, milliseconds */
  created_at: string;
  /** RFC 3339, UTC, milliseconds */
  updated_at: string;
}

export interface PaymentLink {
  id: string;
  project_id: string;
  /** The page to share; the pay button posts to it */
  url: string;
  active: boolean;
  title: string;
  description: string | null;
  /** The fixed price; null when the payer chooses */
  amount: string | null;
  /** The least a payer may choose; null for no bound */
  min_amount: string | null;
  /** The most a payer may choose; null for no bound */
  max_amount: string | null;
  currency: string;
  redirect_url: string | null;
  collect_email: boolean;
  max_uses: number | null;
  /** Invoices made from the link so far */
  uses: number;
  /** RFC 3339, UTC, milliseconds */
  expires_at: string | null;
  /** RFC 3339, UTC, milliseconds */
  created_at: string;
  /** RFC 3339, UTC, milliseconds */
  updated_at: string;
}

/** GET /v1/merchant/me: The project and API key in use */
export interface GetMeResponse {
  success: true;
  message: string;
  data: {
    project: {
      id: string;
      name: string;
      status: 'active' | 'inactive';
      /** False for test money: the sandbox or a testnet (a test project, its invoices, refunds and collections); true for real money. Read-only: an invoice keeps it for its lifetime */
      livemode: boolean;
      /** The invoice currency: USD, USDT or USDC */
      currency: string;
      /** The first payment method's network */
      network: string;
      /** Every way invoices may be paid, in the payment page's order */
      payment_methods: {
        network: string;
        currency: string;
      }[];
      /** The extended public key deposit addresses come from, when there is only one */
      xpub: string | null;
      /** The key EVM deposit addresses come from */
      evm_xpub: string | null;
      /** The key TRON deposit addresses come from */
      tron_xpub: string | null;
      /** Where EVM deposits are collected to; set, EVM deposit addresses are forwarders */
      payout_address: string | null;
      /** The merchant's Solana wallet: its token accounts receive Solana payments */
      solana_address: string | null;
      underpayment_tolerance_percent: number;
      invoice_ttl_seconds: number;
      /** RFC 3339, UTC, milliseconds */
      created_at: string;
    };
    api_key: ApiKey;
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface ListInvoicesQuery {
  /** One status, or several separated by commas */
  status?: string;
  order_id?: string;
  /** @default 20 */
  limit?: number;
  /** @default 1 */
  page?: number;
}

/** GET /v1/merchant/invoices: List invoices, newest first */
export interface ListInvoicesResponse {
  success: true;
  message: string;
  data: Invoice[];
  meta: {
    pagination: {
      page: number;
      limit: number;
      total: number;
      total_pages: number;
      has_more: boolean;
    };
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface CreateInvoiceHeaders {
  /** Retrying with the same key returns the first invoice instead of creating another (kept 24 h) */
  'idempotency-key'?: string;
}

export interface CreateInvoiceBody {
  /** Positive decimal string, at most 2 decimals and 15 integer digits; never a JSON number */
  amount: string;
  order_id?: string | null;
  /** What the payer is paying for, shown on the payment page: at most 500 characters, one line */
  description?: string | null;
  /** Up to 20 string values of your own, returned as given */
  metadata?: Record<string, string> | null;
  /** Where the paid view sends the payer back to your shop: an absolute https:// URL (http:// to localhost only when PAYDESK_WEBHOOK_ALLOW_PRIVATE=true), at most 2,000 characters */
  redirect_url?: string | null;
  /** Where the waiting view's "Cancel and return" goes: an absolute https:// URL (http:// to localhost only when PAYDESK_WEBHOOK_ALLOW_PRIVATE=true), at most 2,000 characters */
  cancel_url?: string | null;
  /** Offer only this network's payment methods (one the project accepts; rule `not_accepted` otherwise) */
  network?: string | null;
}

/** POST /v1/merchant/invoices: Create an invoice */
export interface CreateInvoiceResponse {
  success: true;
  message: string;
  data: Invoice;
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface GetInvoicePath {
  /** The invoice id, inv_… */
  invoice: string;
}

/** GET /v1/merchant/invoices/{invoice}: Get one invoice */
export interface GetInvoiceResponse {
  success: true;
  message: string;
  data: Invoice;
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface ListRefundsPath {
  /** The invoice id, inv_… */
  invoice: string;
}

/** GET /v1/merchant/invoices/{invoice}/refunds: An invoice's refunds, oldest first */
export interface ListRefundsResponse {
  success: true;
  message: string;
  data: Refund[];
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface CreateRefundPath {
  /** The invoice id, inv_… */
  invoice: string;
}

export interface CreateRefundHeaders {
  /** Retrying with the same key answers the refund it made instead of making another (kept 24 h); a refund not claimed yet gets a new claim link, and the lost one stops working */
  'idempotency-key'?: string;
}

export interface CreateRefundBody {
  /** In the invoice currency, with its decimals; at most what was paid and not yet refunded (rule `exceeds_paid`). Default: all of that. To refund only an over-payment, send the over-paid part (`amount_paid` less `amount`) */
  amount?: string | null;
  /** Why, for your records (not shown to the payer) */
  reason?: string | null;
}

/** POST /v1/merchant/invoices/{invoice}/refunds: Refund a paid or failed invoice */
export interface CreateRefundResponse {
  success: true;
  message: string;
  data: {
    refund: Refund;
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface CancelRefundPath {
  /** The invoice id, inv_… */
  invoice: string;
  /** The refund id, ref_… */
  refund: string;
}

export interface CancelRefundHeaders {
  /** Retrying with the same key answers what the first request did (kept 24 h) */
  'idempotency-key'?: string;
}

export type CancelRefundBody = Record<string, never>;

/** POST /v1/merchant/invoices/{invoice}/refunds/{refund}/cancel: Cancel a refund */
export interface CancelRefundResponse {
  success: true;
  message: string;
  data: {
    refund: Refund;
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface NewRefundClaimLinkPath {
  /** The invoice id, inv_… */
  invoice: string;
  /** The refund id, ref_… */
  refund: string;
}

export interface NewRefundClaimLinkHeaders {
  /** Retrying with the same key answers what the first request did (kept 24 h) */
  'idempotency-key'?: string;
}

export type NewRefundClaimLinkBody = Record<string, never>;

/** POST /v1/merchant/invoices/{invoice}/refunds/{refund}/claim-link: Make a new claim link for a refund */
export interface NewRefundClaimLinkResponse {
  success: true;
  message: string;
  data: {
    refund: Refund;
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface ListPaymentLinksQuery {
  /** @default 20 */
  limit?: number;
  /** @default 1 */
  page?: number;
}

/** GET /v1/merchant/payment-links: List payment links, newest first */
export interface ListPaymentLinksResponse {
  success: true;
  message: string;
  data: PaymentLink[];
  meta: {
    pagination: {
      page: number;
      limit: number;
      total: number;
      total_pages: number;
      has_more: boolean;
    };
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface CreatePaymentLinkBody {
  /** What the payer buys, the heading of the link page: at most 200 characters, one line */
  title: string;
  /** Shown under the title, and on each invoice made from the link: at most 500 characters */
  description?: string | null;
  /** A fixed price; leave it out to let the payer choose */
  amount?: string | null;
  /** The least a payer may choose (no `amount` given) */
  min_amount?: string | null;
  /** The most a payer may choose (no `amount` given) */
  max_amount?: string | null;
  /** The price's currency; the project's when absent */
  currency?: string;
  /** Where each invoice's paid view sends the payer back: an absolute https:// URL */
  redirect_url?: string | null;
  /** Ask the payer for an e-mail address (kept on the invoice as `payer_email`, for the receipt) */
  collect_email?: boolean;
  /** How many invoices the link may make; absent or null for no limit */
  max_uses?: number | null;
  /** After this moment the link makes no more invoices (RFC 3339) */
  expires_at?: string | null;
}

/** POST /v1/merchant/payment-links: Create a payment link */
export interface CreatePaymentLinkResponse {
  success: true;
  message: string;
  data: PaymentLink;
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface GetPaymentLinkPath {
  /** The payment link id, plink_… */
  link: string;
}

/** GET /v1/merchant/payment-links/{link}: Get one payment link */
export interface GetPaymentLinkResponse {
  success: true;
  message: string;
  data: PaymentLink;
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface UpdatePaymentLinkPath {
  /** The payment link id, plink_… */
  link: string;
}

export interface UpdatePaymentLinkBody {
  /** False stops the link making invoices; true again resumes */
  active?: boolean;
  /** What the payer buys, the heading of the link page: at most 200 characters, one line */
  title?: string;
  /** Shown under the title, and on each invoice made from the link: at most 500 characters */
  description?: string | null;
  /** Where each invoice's paid view sends the payer back: an absolute https:// URL */
  redirect_url?: string | null;
  /** Ask the payer for an e-mail address (kept on the invoice as `payer_email`, for the receipt) */
  collect_email?: boolean;
  /** How many invoices the link may make; absent or null for no limit */
  max_uses?: number | null;
  /** After this moment the link makes no more invoices (RFC 3339) */
  expires_at?: string | null;
}

/** PATCH /v1/merchant/payment-links/{link}: Change a payment link */
export interface UpdatePaymentLinkResponse {
  success: true;
  message: string;
  data: PaymentLink;
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}

export interface ListPaymentLinkInvoicesPath {
  /** The payment link id, plink_… */
  link: string;
}

export interface ListPaymentLinkInvoicesQuery {
  /** @default 20 */
  limit?: number;
  /** @default 1 */
  page?: number;
}

/** GET /v1/merchant/payment-links/{link}/invoices: A payment link's invoices, newest first */
export interface ListPaymentLinkInvoicesResponse {
  success: true;
  message: string;
  data: Invoice[];
  meta: {
    pagination: {
      page: number;
      limit: number;
      total: number;
      total_pages: number;
      has_more: boolean;
    };
  };
  /** Quote it to support. Also sent as the X-Trace-Id header. */
  trace_id: string;
}
