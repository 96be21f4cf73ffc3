import type {
  ChainBlockTable,
  ChainCursorTable,
  ChainTransferTable,
  XpubIndexTable,
} from '../chains/chain.table.js';
import type { IdempotencyKeyTable, InvoiceCountTable, InvoiceTable } from '../invoices/invoice.table.js';
import type { PaymentTable } from '../invoices/payment.table.js';
import type { AccountTable, ApiKeyTable, ProjectTable } from '../merchants/merchant.table.js';
import type {
  EventTable,
  WebhookAttemptTable,
  WebhookDeliveryTable,
  WebhookEndpointTable,
} from '../webhooks/webhook.table.js';

/** Every table Kysely knows about; each feature folder owns the types of its own tables. */
export interface Database {
  accounts: AccountTable;
  projects: ProjectTable;
  api_keys: ApiKeyTable;
  invoices: InvoiceTable;
  invoice_counts: InvoiceCountTable;
  idempotency_keys: IdempotencyKeyTable;
  payments: PaymentTable;
  events: EventTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  xpub_indexes: XpubIndexTable;
  chain_cursors: ChainCursorTable;
  chain_blocks: ChainBlockTable;
  chain_transfers: ChainTransferTable;
}
