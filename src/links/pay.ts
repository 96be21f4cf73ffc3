import type { Kysely } from 'kysely';
import type { Language } from '../checkout/i18n/i18n.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { hasIdShape } from '../ids.js';
import type { Invoice } from '../invoices/invoice.js';
import { createLinkInvoice, type InvoiceContext } from '../invoices/service.js';
import { amountText, formatMoney } from '../money/money.js';
import { linkUrl } from './link.js';
import type { PaymentLinkRow } from './link.table.js';
import { claimUse, findPublicLink, type LinkProject } from './repository.js';
import { methodsFor, parsePayerAmount, parsePayerEmail } from './rules.js';

// The payer's side of a payment link (contract §25): what the page shows, and "Pay", which alone
// makes an invoice.

export type PublicLink = PaymentLinkRow & LinkProject;

/** Why a link makes no invoice now, or why a payer's answers were refused. */
export type Refusal = 'inactive' | 'expired' | 'usedUp' | 'unpayable' | 'amount' | 'email' | 'token';

export async function findLinkForPage(db: Kysely<Database>, id: string): Promise<PublicLink> {
  // Whatever bytes the path holds (NUL, invalid UTF-8), an id that cannot be a link's is the same
  // 404 as an unknown one, without a query.
  const link = hasIdShape(id, 'plink') ? await findPublicLink(db, id) : undefined;
  if (!link) throw ApiError.notFound('No payment link with this id');
  return link;
}

/** Why the link cannot be paid now, whatever the payer answers; undefined when it can. */
export function closedReason(link: PublicLink, now: Date): Refusal | undefined {
  if (!link.active || !link.open) return 'inactive';
  if (link.expires_at !== null && link.expires_at.getTime() <= now.getTime()) return 'expired';
  if (link.max_uses !== null && link.uses >= link.max_uses) return 'usedUp';
  if (methodsFor(link.payment_methods, link.currency).length === 0) return 'unpayable';
  return undefined;
}

export interface PayerAnswers {
  amount?: unknown;
  email?: unknown;
}

class LinkClosed extends Error {}

/**
 * Makes the link's invoice for a payer who pressed "Pay" (the caller checked the form token), or says
 * why not. The link's use is claimed in the invoice's own transaction (repository.ts claimUse).
 */
export async function payLink(
  db: Kysely<Database>,
  link: PublicLink,
  answers: PayerAnswers,
  lang: Language,
  ctx: InvoiceContext,
): Promise<{ invoice: Invoice } | { refusal: Refusal }> {
  const closed = closedReason(link, ctx.now);
  if (closed) return { refusal: closed };
  const chosen =
    link.amount === null
      ? parsePayerAmount(answers.amount, link.currency, { min: link.min_amount, max: link.max_amount })
      : undefined;
  if (link.amount === null && chosen === undefined) return { refusal: 'amount' };
  const email = link.collect_email ? parsePayerEmail(answers.email) : null;
  if (email === undefined) return { refusal: 'email' };
  const amount = amountText(link.amount ?? formatMoney(chosen as NonNullable<typeof chosen>), link.currency);
  const project = {
    projectId: link.project_id,
    currency: link.currency,
    methods: methodsFor(link.payment_methods, link.currency),
    tolerancePercent: link.underpayment_tolerance_percent,
    invoiceTtlSeconds: link.invoice_ttl_seconds,
    payoutAddress: link.payout_address,
    solanaAddress: link.solana_address,
    hasEvmXpub: link.has_evm_xpub,
  };
  const input = {
    amount,
    description: link.title,
    redirect_url: link.redirect_url,
    // "Cancel and return" on the payment page goes back to the link's page.
    cancel_url: linkUrl(ctx.publicBaseUrl, link.id),
  };
  const origin = { paymentLinkId: link.id, payerEmail: email, payerLanguage: lang };
  try {
    const invoice = await createLinkInvoice(db, project, input, origin, ctx, async (tx) => {
      if (!(await claimUse(tx, link.id, ctx.now))) throw new LinkClosed();
    });
    return { invoice };
  } catch (err) {
    if (!(err instanceof LinkClosed)) throw err;
    // Taken meanwhile (the last use, a deactivation): the page says which, as it now stands.
    const now = await findLinkForPage(db, link.id);
    return { refusal: closedReason(now, ctx.now) ?? 'usedUp' };
  }
}
