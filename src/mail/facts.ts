import { formatMoney, money } from '../money/money.js';
import type { NetworkRegistry } from '../networks/network.js';
import type { ClaimedMail } from './delivery.repository.js';
import { mailLanguage } from './templates/catalogue.js';
import type { MailFacts } from './templates/render.js';

interface EventData {
  invoice?: { amount_paid?: string; currency?: string; network?: string | null; tx_hash?: string | null };
  payment?: { amount?: string; currency?: string; network?: string; tx_hash?: string };
}

/**
 * What a leased mail says. Invoice mails read their event's body, the invoice as it was announced
 * (a receipt shows what was paid, an after-close notice the payment that came late); a refund's
 * mail reads the refund. Rendered at sending, so a template fixed later applies to mail still queued.
 */
export function mailFacts(mail: ClaimedMail, networks: NetworkRegistry): MailFacts {
  const data: EventData = mail.event_body ? (JSON.parse(mail.event_body).data ?? {}) : {};
  const common = {
    kind: mail.kind,
    language: mailLanguage(mail.language),
    merchant: mail.merchant,
    invoiceId: mail.invoice_id,
    livemode: mail.livemode,
    claimUrl: null,
  };
  if (mail.kind === 'refund_claim') {
    const amount = {
      amount: mail.refund_amount === null ? '' : formatMoney(money(mail.refund_amount)),
      currency: mail.refund_currency ?? '',
    };
    // The claim link is opened by the sender (claim.ts): it may be sealed.
    return { ...common, ...amount, network: null, txHash: null, txUrl: null };
  }
  const paid =
    mail.kind === 'owner_after_close'
      ? { ...data.payment, amount: data.payment?.amount }
      : { ...data.invoice, amount: data.invoice?.amount_paid };
  const network = paid.network ?? null;
  const txHash = paid.tx_hash ?? null;
  return {
    ...common,
    amount: paid.amount ?? '',
    currency: paid.currency ?? '',
    network: network && networks.label(network),
    txHash,
    txUrl: (network && txHash && networks.transactionUrl(network, txHash)) || null,
  };
}
