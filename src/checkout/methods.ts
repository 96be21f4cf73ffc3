import type { OfferedMethod } from '../invoices/invoice.table.js';
import { type InvoiceState, type Payment, towardsInvoice } from '../invoices/lifecycle.js';
import { methodKey, type PaymentMethod } from '../networks/methods.js';
import type { ViewState } from './checkout.js';

/**
 * Which of an invoice's payment methods (contract §15) the page shows, and which payments each view
 * names. The page never says "the project's network": it says the method chosen while waiting, and
 * the network and token of the payments actually made once there are some.
 */

/** `tron:USDT`: a method as `?method=` names it. */
export const keyOf = (m: { network: string; currency: string }) => methodKey(m as PaymentMethod);

/**
 * The method the waiting view shows: the one chosen in the URL when the invoice offers it, else the
 * one the first payment towards the invoice used (the rest is most likely sent the same way; dust,
 * which anyone can send, chooses nothing), else the first.
 * `chosen` is kept only when it names an offered method, so the page's own links never carry a
 * method the invoice does not have.
 */
export function pickMethod(
  methods: readonly OfferedMethod[],
  invoice: InvoiceState,
  wanted: string | undefined,
): { method: OfferedMethod; chosen: string | undefined } {
  const chosen = methods.find((m) => keyOf(m) === wanted);
  if (chosen) return { method: chosen, chosen: keyOf(chosen) };
  const first = invoice.payments.find(towardsInvoice);
  const inUse = first && methods.find((m) => m.network === first.network && m.currency === first.currency);
  return { method: inUse ?? (methods[0] as OfferedMethod), chosen: undefined };
}

/**
 * The payments a view names by token and network: the one confirming (detected); the accepted and
 * confirmed ones (paid, and waiting after a part-payment); for a failed invoice those, or the
 * reversed ones when a reversal failed it. None for an expired invoice: it says nothing new.
 */
export function paymentsShown(view: ViewState, invoice: InvoiceState, seen: Payment | undefined): Payment[] {
  const confirmed = invoice.payments.filter((p) => p.status === 'confirmed');
  switch (view) {
    case 'detected':
      return seen ? [seen] : [];
    case 'waiting':
    case 'paid':
      return confirmed;
    case 'failed':
      return invoice.failureReason === 'payment_reversed'
        ? invoice.payments.filter((p) => p.status === 'reversed')
        : confirmed;
    case 'expired':
      return [];
  }
}

/**
 * The networks the header's badge names: the chosen method's while waiting, the payments' once the
 * view names payments, else the invoice's one network; none for an invoice of several networks with
 * no payment to name (an expired one).
 */
export function badgeNetworks(
  view: ViewState,
  method: OfferedMethod,
  shown: readonly Payment[],
  methods: readonly OfferedMethod[],
): string[] {
  if (view === 'waiting') return [method.network];
  if (shown.length > 0) return [...new Set(shown.map((p) => p.network))];
  const offered = [...new Set(methods.map((m) => m.network))];
  return offered.length === 1 ? offered : [];
}
