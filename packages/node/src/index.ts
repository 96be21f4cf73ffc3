export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  Paydesk,
  type PaydeskOptions,
} from './client.js';
export {
  type ApiErrorCode,
  type FieldError,
  PaydeskAPIError,
  PaydeskAuthenticationError,
  PaydeskConnectionError,
  PaydeskError,
  type PaydeskErrorCode,
  PaydeskNotFoundError,
  PaydeskPermissionError,
  PaydeskRateLimitError,
  PaydeskValidationError,
} from './errors.js';
export type {
  Collection,
  CollectionConfirmedEvent,
  CollectionFailedEvent,
  InvoiceCreatedEvent,
  InvoiceEventData,
  InvoiceExpiredEvent,
  InvoiceFailedEvent,
  InvoicePaidEvent,
  InvoicePayment,
  InvoicePaymentAfterCloseEvent,
  InvoicePaymentDetectedEvent,
  InvoicePaymentUnacceptedEvent,
  RefundConfirmedEvent,
  RefundEventData,
  RefundReadyEvent,
  WebhookEvent,
  WebhookEventType,
  WebhookTestEvent,
} from './events.js';
export type { Invoices } from './invoices.js';
export type { InvoiceList } from './list.js';
export type { PaymentLinks } from './payment-links.js';
export type { Refunds } from './refunds.js';
export type {
  CreateOptions,
  Invoice,
  InvoiceCreateParams,
  InvoiceListParams,
  InvoicePage,
  InvoicePaymentMethod,
  InvoiceStatus,
  Me,
  Pagination,
  Payment,
  PaymentLink,
  PaymentLinkCreateParams,
  PaymentLinkPage,
  PaymentLinkUpdateParams,
  Refund,
  RefundCreateParams,
  RefundStatus,
  RequestOptions,
} from './types.js';
export { VERSION } from './version.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  PaydeskSignatureVerificationError,
  type SignatureFailure,
  type VerifyOptions,
  type WebhookHeaders,
  type Webhooks,
} from './webhooks.js';
