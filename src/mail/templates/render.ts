import { html } from '../../web/html.js';
import { type MailLanguage, message } from './catalogue.js';
import type { MailKey } from './en.js';

export type MailKind = 'receipt' | 'refund_claim' | 'owner_paid' | 'owner_after_close';

/** What a mail says, gathered by the sender from the delivery's event, invoice and refund. */
export interface MailFacts {
  kind: MailKind;
  language: MailLanguage;
  merchant: string;
  invoiceId: string;
  amount: string;
  currency: string;
  /** The network's name as people read it; null when not known (a refund not claimed yet). */
  network: string | null;
  txHash: string | null;
  /** The explorer's page of the transaction; null on sandbox and local chains. */
  txUrl: string | null;
  /** The refund's claim link (refund_claim only): a capability, for the payer alone. */
  claimUrl: string | null;
  livemode: boolean;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const KEYS: Record<MailKind, { subject: MailKey; heading: MailKey; intro: MailKey }> = {
  receipt: { subject: 'receipt.subject', heading: 'receipt.heading', intro: 'receipt.intro' },
  refund_claim: { subject: 'refund.subject', heading: 'refund.heading', intro: 'refund.intro' },
  owner_paid: { subject: 'paid.subject', heading: 'paid.heading', intro: 'paid.intro' },
  owner_after_close: {
    subject: 'afterClose.subject',
    heading: 'afterClose.heading',
    intro: 'afterClose.intro',
  },
};

/**
 * A mail's plain text and HTML parts from the same facts and strings. Every value is escaped in the
 * HTML (html`` escapes whatever is not already markup): a merchant's name is never markup. The
 * subject loses line breaks, so no value can add a header.
 */
export function renderMail(f: MailFacts): RenderedMail {
  const t = (key: MailKey) =>
    message(f.language, key, {
      merchant: f.merchant,
      amount: f.amount,
      currency: f.currency,
      invoice: f.invoiceId,
    });
  const keys = KEYS[f.kind];
  const rows: Array<[string, string]> = [
    [t('field.invoice'), f.invoiceId],
    [t('field.amount'), `${f.amount} ${f.currency}`],
  ];
  if (f.network) rows.push([t('field.network'), f.network]);
  if (f.txHash) rows.push([t('field.transaction'), f.txHash]);
  const footer = [f.livemode ? null : t('footer.test'), t('footer.sentBy')].filter(
    (l): l is string => l !== null,
  );
  const text = [
    t(keys.heading),
    '',
    t(keys.intro),
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(f.txUrl ? [`${t('link.transaction')}: ${f.txUrl}`] : []),
    ...(f.claimUrl ? ['', `${t('refund.action')}: ${f.claimUrl}`, t('refund.private')] : []),
    '',
    ...footer,
  ].join('\n');
  const body = html`<!doctype html>
<html lang="${f.language}"><head><meta charset="utf-8"><title>${t(keys.subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<h1 style="font-size:20px">${t(keys.heading)}</h1>
<p>${t(keys.intro)}</p>
<table>${rows.map(([k, v]) => html`<tr><th align="left" style="padding-right:12px">${k}</th><td>${v}</td></tr>`)}</table>
${f.txUrl ? html`<p><a href="${f.txUrl}">${t('link.transaction')}</a></p>` : ''}
${f.claimUrl ? html`<p><a href="${f.claimUrl}"><strong>${t('refund.action')}</strong></a></p><p>${t('refund.private')}</p>` : ''}
<p style="color:#555;font-size:13px">${footer.map((l) => html`${l}<br>`)}</p>
</body></html>`;
  return { subject: t(keys.subject).replace(/[\r\n]+/g, ' '), text, html: body.value };
}
