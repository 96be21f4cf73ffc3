/**
 * The mails' strings in English, the fallback (contract §25); the other languages translate every key
 * (templates.test.ts). `{{name}}` is filled in by catalogue.ts; values are escaped in the HTML part.
 */
export const en = {
  'receipt.subject': 'Receipt from {{merchant}}: {{amount}} {{currency}}',
  'receipt.heading': 'Thank you for your payment',
  'receipt.intro': '{{merchant}} received your payment of {{amount}} {{currency}}.',
  'refund.subject': 'Your refund from {{merchant}}: {{amount}} {{currency}}',
  'refund.heading': 'You have a refund',
  'refund.intro': '{{merchant}} is refunding {{amount}} {{currency}} of your payment.',
  'refund.action': 'Choose where to receive it',
  'refund.private':
    'This link is for you alone: whoever has it can choose where the refund goes. It works once.',
  'paid.subject': 'Invoice paid: {{amount}} {{currency}} ({{invoice}})',
  'paid.heading': 'An invoice was paid',
  'paid.intro': 'Invoice {{invoice}} of {{merchant}} was paid: {{amount}} {{currency}}.',
  'afterClose.subject': 'Payment after close: {{amount}} {{currency}} ({{invoice}})',
  'afterClose.heading': 'A payment arrived after the invoice closed',
  'afterClose.intro':
    'A payment of {{amount}} {{currency}} reached invoice {{invoice}} of {{merchant}} after it closed. It is not credited; you can refund it from the dashboard.',
  'field.amount': 'Amount',
  'field.network': 'Network',
  'field.transaction': 'Transaction',
  'field.invoice': 'Invoice',
  'link.transaction': 'View the transaction',
  'footer.test': 'Test mode: no real money moved.',
  'footer.sentBy': 'Sent for {{merchant}} by Paydesk.',
} as const;

export type MailKey = keyof typeof en;
export type MailMessages = Record<MailKey, string>;
