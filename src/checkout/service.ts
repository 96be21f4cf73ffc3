import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { hasIdShape } from '../ids.js';
import type { OfferedMethod } from '../invoices/invoice.table.js';
import {
  confirming,
  type InvoiceState,
  LATE_PAYMENT_WINDOW_MS,
  outstanding,
  type Payment,
  stateAt,
} from '../invoices/lifecycle.js';
import { stateOf } from '../invoices/observe.js';
import type { Money } from '../money/money.js';
import { methodKey, type PaymentMethod } from '../networks/methods.js';
import { type NetworkRegistry, SANDBOX } from '../networks/network.js';
import { carriesAmount, paymentRequest, walletLink } from '../networks/payment-request.js';
import { simulatePayment } from '../sandbox/service.js';
import { toPublicStatus, type ViewState, versionTag, viewOf } from './checkout.js';
import { type CheckoutRow, findCheckout } from './repository.js';

export interface Checkout {
  row: CheckoutRow;
  /** The method the page shows: the one chosen (`?method=`), else the one in use, else the first. */
  method: OfferedMethod;
  /** The lifecycle's state of the invoice at `now`: what every view shows. */
  invoice: InvoiceState;
  /** The public JSON of /status (amounts formatted as on the wire). */
  status: ReturnType<typeof toPublicStatus>;
  state: ViewState;
  /** The strong ETag of /status, also carried by the page so its script knows what it shows. */
  etag: string;
  now: Date;
  /** The network as the payer reads it ("Polygon"). */
  networkLabel: string;
  /** What is still to be sent (lifecycle.outstanding). */
  due: Money;
  /** The QR code's text: what a wallet needs to pay what is still due. */
  paymentRequest: string;
  /** False where the QR code holds the bare address (TRON): the payer types the amount. */
  requestCarriesAmount: boolean;
  /** "Open in wallet": a URI for a wallet on the same device (walletLink); undefined when none fits. */
  walletUri: string | undefined;
  /** The payment seen and still confirming (the detected view's amount and transaction). */
  seen: Payment | undefined;
  /** The transaction the page shows (the one confirming, else the invoice's) and its explorer page. */
  transaction: { hash: string; url: string | undefined } | undefined;
  /** Until when a payment still counts after expiry (contract §9's 24 h late window). */
  lateUntil: Date;
}

/** The invoice behind a payment page; an unknown or malformed id is NOT_FOUND, with no query for the latter. */
export async function loadCheckout(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  id: string,
  now: Date,
  chosen?: string,
): Promise<Checkout> {
  const found = hasIdShape(id, 'inv') ? await findCheckout(db, id) : undefined;
  if (!found) throw ApiError.notFound('No invoice with this id');
  const { row } = found;
  const invoice = stateAt(stateOf(row, found.payments), now);
  const state = viewOf(invoice);
  const status = toPublicStatus(row, invoice);
  const due = outstanding(invoice);
  const method = pickMethod(row, chosen);
  const target = {
    network: method.network,
    currency: method.currency,
    pay_address: method.pay_address,
    amount: due,
  };
  const seen = confirming(invoice);
  const hash = seen?.txHash ?? invoice.txHash ?? row.tx_hash;
  return {
    row,
    method,
    invoice,
    status,
    state,
    etag: versionTag(row, state, status),
    now,
    networkLabel: networks.label(method.network),
    due,
    paymentRequest: paymentRequest(target, networks),
    requestCarriesAmount: carriesAmount(method.network, networks),
    walletUri: walletLink(target, networks),
    seen,
    transaction: hash
      ? { hash, url: networks.transactionUrl(row.network ?? method.network, hash) }
      : undefined,
    lateUntil: new Date(invoice.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS),
  };
}

/** The method to show: `?method=network:currency` when the invoice offers it, else the one in use, else the first. */
function pickMethod(row: CheckoutRow, chosen: string | undefined): OfferedMethod {
  const methods = row.payment_methods;
  return (
    methods.find((m) => methodKey(m as PaymentMethod) === chosen) ??
    methods.find((m) => m.network === row.network) ??
    (methods[0] as OfferedMethod)
  );
}

/** Only sandbox invoices still waiting for a payment can be paid from the page. */
export function canSimulate(c: Checkout): boolean {
  return c.method.network === SANDBOX && c.state === 'waiting';
}

/**
 * The page's "Simulate payment" button: the admin simulator's path (contract §11), with its defaults
 * (the amount still due, confirmed). Off the sandbox the action does not exist (NOT_FOUND); on an
 * invoice no longer waiting it does nothing, so a double submit just shows the current state.
 */
export async function simulateFromPage(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  id: string,
  now: Date,
  publicBaseUrl: string,
  chosen?: string,
): Promise<void> {
  const checkout = await loadCheckout(db, networks, id, now, chosen);
  if (checkout.method.network !== SANDBOX) throw ApiError.notFound('No such action for this invoice');
  if (!canSimulate(checkout)) return;
  await simulatePayment(db, id, { currency: checkout.method.currency }, { now, publicBaseUrl });
}
