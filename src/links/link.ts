import { Type } from '@sinclair/typebox';
import { nullable, Timestamp } from '../http/schemas.js';
import { explainedFormat, noControlCharacters } from '../http/validation.js';
import { amountFormat, MAX_DESCRIPTION_LENGTH } from '../invoices/invoice.js';
import { MAX_RETURN_URL_LENGTH, RETURN_URL_FORMAT } from '../invoices/return-url.js';
import { amountText } from '../money/money.js';
import type { PaymentLinkRow } from './link.table.js';

export const MAX_TITLE_LENGTH = 200;
export const MAX_USES_LIMIT = 1_000_000_000;

/** Where a link's page lives: what the merchant shares, and what the pay button posts to. */
export const linkUrl = (publicBaseUrl: string, id: string) => `${publicBaseUrl}/l/${id}`;

const Title = Type.String({
  minLength: 1,
  maxLength: MAX_TITLE_LENGTH,
  format: noControlCharacters.name,
  description: 'What the payer buys, the heading of the link page: at most 200 characters, one line',
  examples: ['Logo design, first draft'],
});
const Description = Type.String({
  maxLength: MAX_DESCRIPTION_LENGTH,
  format: noControlCharacters.name,
  description: 'Shown under the title, and on each invoice made from the link: at most 500 characters',
});
const Amount = (what: string) =>
  Type.String({ format: amountFormat.name, description: what, examples: ['25.00'] });
const RedirectUrl = Type.String({
  format: RETURN_URL_FORMAT,
  maxLength: MAX_RETURN_URL_LENGTH,
  description: "Where each invoice's paid view sends the payer back: an absolute https:// URL",
});
const MaxUses = Type.Integer({
  minimum: 1,
  maximum: MAX_USES_LIMIT,
  description: 'How many invoices the link may make; absent or null for no limit',
});
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A moment as RFC 3339 with a zone (`2026-12-31T23:00:00Z`): a link's expiry. */
export const timestampFormat = explainedFormat('timestamp', (value, field) =>
  RFC3339.test(value) && !Number.isNaN(Date.parse(value))
    ? { ok: true }
    : {
        ok: false,
        rule: 'timestamp',
        message: `${field} must be an RFC 3339 time with a zone, e.g. 2026-12-31T23:00:00Z`,
      },
);

const ExpiresAt = Type.String({
  format: timestampFormat.name,
  description: 'After this moment the link makes no more invoices (RFC 3339)',
});
const CollectEmail = Type.Boolean({
  description: 'Ask the payer for an e-mail address (kept on the invoice as `payer_email`, for the receipt)',
});

export const NewPaymentLinkSchema = Type.Object(
  {
    title: Title,
    description: Type.Optional(nullable(Description)),
    amount: Type.Optional(nullable(Amount('A fixed price; leave it out to let the payer choose'))),
    min_amount: Type.Optional(nullable(Amount('The least a payer may choose (no `amount` given)'))),
    max_amount: Type.Optional(nullable(Amount('The most a payer may choose (no `amount` given)'))),
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{3,4}$',
        description: "The price's currency; the project's when absent",
      }),
    ),
    redirect_url: Type.Optional(nullable(RedirectUrl)),
    collect_email: Type.Optional(CollectEmail),
    max_uses: Type.Optional(nullable(MaxUses)),
    expires_at: Type.Optional(nullable(ExpiresAt)),
  },
  { additionalProperties: false },
);

export const PaymentLinkChangeSchema = Type.Object(
  {
    active: Type.Optional(
      Type.Boolean({ description: 'False stops the link making invoices; true again resumes' }),
    ),
    title: Type.Optional(Title),
    description: Type.Optional(nullable(Description)),
    redirect_url: Type.Optional(nullable(RedirectUrl)),
    collect_email: Type.Optional(CollectEmail),
    max_uses: Type.Optional(nullable(MaxUses)),
    expires_at: Type.Optional(nullable(ExpiresAt)),
  },
  { additionalProperties: false },
);

export type NewPaymentLink = (typeof NewPaymentLinkSchema)['static'];
export type PaymentLinkChange = (typeof PaymentLinkChangeSchema)['static'];

const amountOrNull = (value: string | null, currency: string) =>
  value === null ? null : amountText(value, currency);

/** The one place a link row becomes its API shape. */
export function toPaymentLink(row: PaymentLinkRow, publicBaseUrl: string) {
  return {
    id: row.id,
    project_id: row.project_id,
    url: linkUrl(publicBaseUrl, row.id),
    active: row.active,
    title: row.title,
    description: row.description,
    amount: amountOrNull(row.amount, row.currency),
    min_amount: amountOrNull(row.min_amount, row.currency),
    max_amount: amountOrNull(row.max_amount, row.currency),
    currency: row.currency,
    redirect_url: row.redirect_url,
    collect_email: row.collect_email,
    max_uses: row.max_uses,
    uses: row.uses,
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type PaymentLink = ReturnType<typeof toPaymentLink>;

const AmountOut = (description: string) => nullable(Type.String({ description, examples: ['25.00'] }));

export const PaymentLinkSchema = Type.Object(
  {
    id: Type.String({ examples: ['plink_4gT8qLz2NwX7bVc9Rm3Kp5Yd'] }),
    project_id: Type.String(),
    url: Type.String({ format: 'uri', description: 'The page to share; the pay button posts to it' }),
    active: Type.Boolean(),
    title: Type.String(),
    description: nullable(Type.String()),
    amount: AmountOut('The fixed price; null when the payer chooses'),
    min_amount: AmountOut('The least a payer may choose; null for no bound'),
    max_amount: AmountOut('The most a payer may choose; null for no bound'),
    currency: Type.String({ examples: ['USD'] }),
    redirect_url: nullable(Type.String({ format: 'uri' })),
    collect_email: Type.Boolean(),
    max_uses: nullable(Type.Integer()),
    uses: Type.Integer({ description: 'Invoices made from the link so far' }),
    expires_at: nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'PaymentLink', title: 'PaymentLink' },
);
