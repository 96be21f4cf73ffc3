import { ApiError, type FieldError } from '../http/errors.js';
import { formatInCurrency } from '../invoices/pricing.js';
import { formatMoney, type Money, parseInvoiceAmount } from '../money/money.js';
import { refundable, refundableStatus } from './amounts.js';
import type { LockedInvoice } from './repository.js';

/**
 * What this refund may be: only of a paid or failed invoice (a pending one may still be paid, an
 * expired one was not, unless money reached it after close), and never more than is left of what was
 * paid and arrived after close. Without an amount, all of it. Read from the invoice under its lock.
 */
export function refundAmount(invoice: LockedInvoice, given: string | undefined): Money {
  if (!refundableStatus(invoice)) {
    throw ApiError.validation([
      {
        in: 'path',
        field: 'invoice',
        rule: 'not_refundable',
        message: `Only a paid or failed invoice, or one that received money after it closed, can be refunded; this one is ${invoice.status}`,
      },
    ]);
  }
  const left = refundable(invoice);
  if (given === undefined) {
    if (left > 0n) return left;
    throw exceedsPaid(`Nothing is left to refund: the invoice's refunds already reach what was paid`);
  }
  const parsed = parseInvoiceAmount(given, 'amount', invoice.currency);
  if (!parsed.ok) {
    throw ApiError.validation([{ in: 'body', field: 'amount', rule: parsed.rule, message: parsed.message }]);
  }
  if (parsed.value > left) {
    const shown = formatInCurrency(formatMoney(left), invoice.currency, invoice.rate !== null);
    throw exceedsPaid(
      `amount is more than is left to refund: at most ${shown} ${invoice.currency} (paid, less the refunds not canceled)`,
    );
  }
  return parsed.value;
}

function exceedsPaid(message: string): ApiError {
  const error: FieldError = { in: 'body', field: 'amount', rule: 'exceeds_paid', message };
  return ApiError.validation([error]);
}
