/** The states of an invoice (contract §3, §9) and of its payments: shared by the table, the API and the lifecycle. */
export const INVOICE_STATUSES = ['pending', 'paid', 'expired', 'failed'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export type PaymentStatus = 'pending' | 'confirmed' | 'reversed';
export type FailureReason = 'underpaid' | 'payment_reversed';
