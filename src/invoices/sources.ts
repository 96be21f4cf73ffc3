/**
 * What a payment source (a chain watcher) may ask the invoices module. Sources read through these and
 * change nothing but through observe(): the invoices module alone stores payments and their status.
 */

export { confirmedPayment, type ObserveContext, observe, type Reported } from './observe.js';
export {
  confirmingUpTo,
  invoicesAt,
  invoicesByReference,
  oldestOpenInvoice,
  solanaWallets,
  standingAbove,
} from './observe.repository.js';
