import type { FieldError } from '../http/errors.js';
import { type Money, money, parseInvoiceAmount } from '../money/money.js';
import { type PaymentMethod, payableIn } from '../networks/methods.js';

// The rules a link's fields and a payer's form answers follow: pure, tested case by case
// (rules.test.ts), the same whichever surface sends them.

export const MAX_EMAIL_LENGTH = 254;

/** Price fields in the link's currency: `amount`, or `min_amount`/`max_amount`, never both. */
export function priceErrors(
  input: { amount?: string | null; min_amount?: string | null; max_amount?: string | null },
  currency: string,
): FieldError[] {
  const errors: FieldError[] = [];
  const parsed: Partial<Record<'amount' | 'min_amount' | 'max_amount', Money>> = {};
  for (const field of ['amount', 'min_amount', 'max_amount'] as const) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    const p = parseInvoiceAmount(value, field, currency);
    if (p.ok) parsed[field] = p.value;
    else errors.push({ in: 'body', field, rule: p.rule, message: p.message });
  }
  const fixed = input.amount != null;
  if (fixed && (input.min_amount != null || input.max_amount != null)) {
    errors.push({
      in: 'body',
      field: 'amount',
      rule: 'exclusive',
      message: 'give either amount (a fixed price) or min_amount/max_amount (the payer chooses), not both',
    });
  }
  if (
    parsed.min_amount !== undefined &&
    parsed.max_amount !== undefined &&
    parsed.min_amount > parsed.max_amount
  ) {
    errors.push({
      in: 'body',
      field: 'min_amount',
      rule: 'range',
      message: 'min_amount must not exceed max_amount',
    });
  }
  return errors;
}

/** The project's methods that can pay a price in `currency` (contract §15, §19). */
export const methodsFor = (methods: readonly PaymentMethod[], currency: string) =>
  methods.filter((m) => payableIn(currency, m.currency));

export function futureError(field: string, value: string | null | undefined, now: Date): FieldError[] {
  if (value === undefined || value === null || new Date(value).getTime() > now.getTime()) return [];
  return [{ in: 'body', field, rule: 'future', message: `${field} must be in the future` }];
}

/**
 * A payer's amount as typed on the link page: the invoice amount rules (money.ts), after trimming and
 * reading a lone decimal comma as a point ("12,50"), as many payers write it.
 */
export function parsePayerAmount(
  text: unknown,
  currency: string,
  bounds: { min: string | null; max: string | null },
): Money | undefined {
  if (typeof text !== 'string') return undefined;
  let value = text.trim();
  if (!value.includes('.') && (value.match(/,/g) ?? []).length === 1) value = value.replace(',', '.');
  const parsed = parseInvoiceAmount(value, 'amount', currency);
  if (!parsed.ok) return undefined;
  if (bounds.min !== null && parsed.value < money(bounds.min)) return undefined;
  if (bounds.max !== null && parsed.value > money(bounds.max)) return undefined;
  return parsed.value;
}

/**
 * A payer's e-mail address, lower-cased: one `@`, a dot in the domain, no spaces, control characters
 * or characters that need quoting, at most 254 characters. Undefined when it is not one.
 */
export function parsePayerEmail(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const value = text.trim().toLowerCase();
  if (value.length === 0 || value.length > MAX_EMAIL_LENGTH) return undefined;
  const ok =
    /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
  return ok.test(value) ? value : undefined;
}
