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
import { isTestNetwork, mayPay } from '../networks/livemode.js';
import { type NetworkRegistry, SANDBOX } from '../networks/network.js';
import { carriesAmount, paymentRequest, walletLink } from '../networks/payment-request.js';
import { simulatePayment } from '../sandbox/service.js';
import { toPublicStatus, type ViewState, versionTag, viewOf } from './checkout.js';
import { badgeNetworks, paymentsShown, pickMethod } from './methods.js';
import { type CheckoutRow, findCheckout } from './repository.js';

export interface Checkout {
  row: CheckoutRow;
  /** Every way to pay this invoice (contract §15); the page offers a choice when there are several. */
  methods: readonly OfferedMethod[];
  /** The method the waiting view shows: the one chosen (`?method=`), else the one in use, else the first. */
  method: OfferedMethod;
  /** The `?method=` key when the URL chose an offered method: the page's own links keep it. */
  chosen: string | undefined;
  /**
   * One method, in the invoice's own currency (every invoice before contract §15): the views name its
   * network, as they always did. Otherwise they name each payment's amount, token and network.
   */
  plain: boolean;
  /** The lifecycle's state of the invoice at `now`: what every view shows. */
  invoice: InvoiceState;
  /** The public JSON of /status (amounts formatted as on the wire). */
  status: ReturnType<typeof toPublicStatus>;
  state: ViewState;
  /** The strong ETag of /status, also carried by the page so its script knows what it shows. */
  etag: string;
  now: Date;
  /** A network as the payer reads it ("Polygon"). */
  label: (network: string) => string;
  /** The chosen method's network as the payer reads it. */
  networkLabel: string;
  /** What the header's badge names (methods.ts badgeNetworks), test for a test invoice; undefined: no badge. */
  badge: { label: string; test: boolean } | undefined;
  /** What is still to be sent (lifecycle.outstanding). */
  due: Money;
  /**
   * Open and not fully paid: the page shows what is due, the address, the QR code and the wallet link
   * (contract §21), in the detected view too while a part-payment confirms.
   */
  payable: boolean;
  /** The QR code's text: what a wallet needs to pay what is still due. */
  paymentRequest: string;
  /** False where the QR code holds the bare address (TRON): the payer types the amount. */
  requestCarriesAmount: boolean;
  /** "Open in wallet": a URI for a wallet on the same device (walletLink); undefined when none fits. */
  walletUri: string | undefined;
  /** The payment seen and still confirming (the detected view's amount and transaction). */
  seen: Payment | undefined;
  /** The payments the view names by amount, token and network (methods.ts paymentsShown). */
  shown: Payment[];
  /** Payments in a token or on a network the invoice does not accept: shown, never credited. */
  unaccepted: Payment[];
  /** The transaction the page shows (the one confirming, else the invoice's) and its explorer page. */
  transaction: { hash: string; url: string | undefined } | undefined;
  /** Until when a payment still counts after expiry (contract §9's 24 h late window). */
  lateUntil: Date;
  /**
   * What the lifecycle's figures (received, missing) are in: the invoice currency when paid at par; the
   * chosen token when the invoice is priced at a rate (its tokens are at par with each other).
   */
  unit: string;
}

/** The invoice behind a payment page; an unknown or malformed id is NOT_FOUND, with no query for the latter. */
export async function loadCheckout(
  db: Kysely<Database>,
  networks: NetworkRegistry,
  id: string,
  now: Date,
  wanted?: string,
): Promise<Checkout> {
  const found = hasIdShape(id, 'inv') ? await findCheckout(db, id) : undefined;
  if (!found) throw ApiError.notFound('No invoice with this id');
  const { row } = found;
  const invoice = stateAt(stateOf(row, found.payments), now);
  const state = viewOf(invoice);
  const status = toPublicStatus(row, invoice);
  const due = outstanding(invoice);
  // A live invoice made before contract §21 may list a test method: never offered, test money cannot pay it.
  const methods = row.payment_methods.filter((m) =>
    mayPay({ test: isTestNetwork(networks, m.network) }, row),
  );
  const { method, chosen } = pickMethod(methods, invoice, wanted);
  const target = {
    network: method.network,
    currency: method.currency,
    pay_address: method.pay_address,
    amount: due,
    // Solana Pay (contract §24): the transaction carries the invoice's reference; the wallet shows these.
    solana: row.solana_reference
      ? {
          reference: row.solana_reference,
          label: row.project_name,
          message: row.description ?? `Invoice ${row.id}`,
        }
      : undefined,
  };
  const seen = confirming(invoice);
  const shown = paymentsShown(state, invoice, seen);
  const badge = badgeNetworks(state, method, shown, methods);
  const hash = seen?.txHash ?? invoice.txHash ?? row.tx_hash;
  // The explorer of the network the transaction is on, which is not the chosen method's.
  const txNetwork = (hash && invoice.payments.find((p) => p.txHash === hash)?.network) ?? method.network;
  const label = (network: string) => networks.label(network);
  return {
    row,
    methods,
    method,
    chosen,
    plain: methods.length === 1 && method.currency === row.currency,
    invoice,
    status,
    state,
    etag: versionTag(row, state, status),
    now,
    label,
    networkLabel: label(method.network),
    badge:
      badge.length > 0
        ? // Test money is marked as such (contract §21): the sandbox and testnets alike.
          { label: badge.map(label).join(' + '), test: !row.livemode }
        : undefined,
    due,
    payable: invoice.status === 'pending' && (state === 'waiting' || state === 'detected') && due > 0n,
    paymentRequest: paymentRequest(target, networks),
    requestCarriesAmount: carriesAmount(method.network, networks),
    walletUri: walletLink(target, networks),
    seen,
    shown,
    unaccepted: invoice.payments.filter((p) => p.status === 'unaccepted'),
    transaction: hash ? { hash, url: networks.transactionUrl(txNetwork, hash) } : undefined,
    lateUntil: new Date(invoice.expiresAt.getTime() + LATE_PAYMENT_WINDOW_MS),
    unit: row.rate ? method.currency : row.currency,
  };
}

/** Only test invoices (livemode false) on the sandbox, still waiting for a payment, are paid from the page. */
export function canSimulate(c: Checkout): boolean {
  return simulable(c) && c.state === 'waiting';
}

const simulable = (c: Checkout) => !c.row.livemode && c.method.network === SANDBOX;

/**
 * The page's "Simulate payment" button: the admin simulator's path (contract §11), with its defaults
 * (the amount still due, confirmed). Off the sandbox or on a live invoice the action does not exist
 * (NOT_FOUND); on an
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
  // A live invoice has no such action at all (contract §21): the same 404 as an invoice off the sandbox.
  if (!simulable(checkout)) throw ApiError.notFound('No such action for this invoice');
  if (!canSimulate(checkout)) return;
  await simulatePayment(db, id, { currency: checkout.method.currency }, { now, publicBaseUrl });
}
