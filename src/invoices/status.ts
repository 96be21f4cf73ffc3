/** The states of an invoice (contract §3, §9) and of its payments: shared by the table, the API and the lifecycle. */
export const INVOICE_STATUSES = ['pending', 'paid', 'expired', 'failed'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * `pending`: seen, still confirming (the API says `detected`); `unaccepted`: a known token on a watched
 * network that the invoice does not accept, recorded and never credited (contract §15). `dust`: too
 * small to matter and not completing the invoice; `after_close`: arrived once the invoice was closed.
 * Both are recorded and never credited on their own (contract §21); `confirmed_at` says when they
 * became final.
 */
export type PaymentStatus = 'pending' | 'confirmed' | 'reversed' | 'unaccepted' | 'dust' | 'after_close';
export type FailureReason = 'underpaid' | 'payment_reversed';
