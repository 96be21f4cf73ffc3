import type { Kysely } from 'kysely';
import type { NetworkRegistry } from '../chains/networks.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { hasIdShape } from '../ids.js';
import { simulatePayment } from '../sandbox/service.js';
import { amountDue, toPublicStatus, type ViewState, versionTag, viewState } from './checkout.js';
import { networkLabel } from './network.js';
import { paymentRequest } from './payment-request.js';
import { type CheckoutRow, findCheckout } from './repository.js';

export interface Checkout {
  row: CheckoutRow;
  /** The public JSON of /status (amounts formatted as on the wire). */
  status: ReturnType<typeof toPublicStatus>;
  state: ViewState;
  /** The strong ETag of /status, also carried by the page so its script knows what it shows. */
  etag: string;
  now: Date;
  /** The network as the payer reads it ("Polygon"). */
  networkLabel: string;
  /** The QR code's text: what a wallet needs to pay what is still due. */
  paymentRequest: string;
}

/** The invoice behind a payment page; an unknown or malformed id is NOT_FOUND, with no query for the latter. */
export async function loadCheckout(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  id: string,
  now: Date,
): Promise<Checkout> {
  const row = hasIdShape(id, 'inv') ? await findCheckout(db, id) : undefined;
  if (!row) throw ApiError.notFound('No invoice with this id');
  const state = viewState(row, now);
  return {
    row,
    status: toPublicStatus(row),
    state,
    etag: versionTag(row, state),
    now,
    networkLabel: networkLabel(row.network, networks),
    paymentRequest: paymentRequest(
      { network: row.network, currency: row.currency, pay_address: row.pay_address, amount: amountDue(row) },
      networks,
    ),
  };
}

/** Only sandbox invoices still waiting (or awaiting confirmation) can be paid from the page. */
export function canSimulate(c: Checkout): boolean {
  return c.row.network === 'sandbox' && (c.state === 'waiting' || c.state === 'detected');
}

/**
 * The page's "Simulate payment" button: the admin simulator's path (contract §11), with its defaults
 * (the amount still due, confirmed). Off the sandbox the action does not exist (NOT_FOUND); on an
 * invoice no longer open it does nothing, so a double submit just shows the current state.
 */
export async function simulateFromPage(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  id: string,
  now: Date,
  publicBaseUrl: string,
): Promise<void> {
  const checkout = await loadCheckout(db, networks, id, now);
  if (checkout.row.network !== 'sandbox') throw ApiError.notFound('No such action for this invoice');
  if (!canSimulate(checkout)) return;
  await simulatePayment(db, id, {}, now, publicBaseUrl);
}
