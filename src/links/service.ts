import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { audit } from '../audit/audit.js';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { offsetOf, pagination } from '../http/pagination.js';
import { newId } from '../ids.js';
import { listLinkInvoices } from '../invoices/service.js';
import { formatMoney, parseInvoiceAmount } from '../money/money.js';
import { changeOf, keyOf, notFoundFor, type Requester } from '../refunds/requester.js';
import type { NewPaymentLink, PaymentLinkChange } from './link.js';
import type { PaymentLinkRow, PaymentLinkTable } from './link.table.js';
import * as repo from './repository.js';
import { futureError, methodsFor, priceErrors } from './rules.js';

// The merchant's side of payment links (contract §25), for the API and the dashboard alike. `who` is
// the caller: an API key (checked live in each statement) or a dashboard user (audited).

const notFound = async (who: Requester): Promise<never> => {
  await notFoundFor(who);
  throw ApiError.notFound('No payment link with this id');
};

const amountOf = (value: string | null | undefined, currency: string) => {
  if (value === undefined || value === null) return null;
  const p = parseInvoiceAmount(value, 'amount', currency);
  return p.ok ? formatMoney(p.value) : null;
};

export async function createLink(
  db: Kysely<Database>,
  who: Requester,
  input: NewPaymentLink,
  now: Date,
): Promise<PaymentLinkRow> {
  return db.transaction().execute(async (tx) => {
    const project = await repo.findProject(tx, who.projectId, keyOf(who));
    if (!project) return notFound(who);
    const currency = input.currency ?? project.project_currency;
    const errors = [...priceErrors(input, currency), ...futureError('expires_at', input.expires_at, now)];
    if (methodsFor(project.payment_methods, currency).length === 0) {
      errors.push({
        in: 'body',
        field: 'currency',
        rule: 'not_accepted',
        message: `none of this project's payment methods can pay a price in ${currency}`,
      });
    }
    if (errors.length > 0) throw ApiError.validation(errors);
    const row: PaymentLinkTable = {
      id: newId('plink'),
      project_id: who.projectId,
      title: input.title,
      description: input.description ?? null,
      amount: amountOf(input.amount, currency),
      min_amount: amountOf(input.min_amount, currency),
      max_amount: amountOf(input.max_amount, currency),
      currency,
      redirect_url: input.redirect_url ?? null,
      collect_email: input.collect_email ?? false,
      max_uses: input.max_uses ?? null,
      uses: 0,
      expires_at: input.expires_at ? new Date(input.expires_at) : null,
      active: true,
      form_secret: randomBytes(32),
      created_at: now,
      updated_at: now,
    };
    const created = await repo.insertLink(tx, row);
    await audit(tx, project.account_id, changeOf(who, now), 'payment_link.created', created.id);
    return created;
  });
}

export async function getLink(db: Kysely<Database>, who: Requester, id: string): Promise<PaymentLinkRow> {
  return (await repo.findLink(db, who.projectId, id, keyOf(who))) ?? notFound(who);
}

export async function listLinks(
  db: Kysely<Database>,
  who: Requester,
  query: { limit: number; page: number },
) {
  const { rows, total, live } = await repo.listLinks(
    db,
    who.projectId,
    { limit: query.limit, offset: offsetOf(query) },
    keyOf(who),
  );
  if (!live) await notFoundFor(who);
  return { rows, pagination: pagination(query, total) };
}

export async function changeLink(
  db: Kysely<Database>,
  who: Requester,
  id: string,
  input: PaymentLinkChange,
  now: Date,
): Promise<PaymentLinkRow> {
  return db.transaction().execute(async (tx) => {
    const link = await repo.lockLink(tx, who.projectId, id, keyOf(who));
    if (!link) return notFound(who);
    const errors = futureError('expires_at', input.expires_at, now);
    if (input.max_uses != null && input.max_uses < link.uses) {
      errors.push({
        in: 'body',
        field: 'max_uses',
        rule: 'below_uses',
        message: `max_uses cannot be less than the ${link.uses} invoices already made from the link`,
      });
    }
    if (errors.length > 0) throw ApiError.validation(errors);
    const { expires_at, ...rest } = input;
    const changes = {
      ...rest,
      ...(expires_at === undefined ? {} : { expires_at: expires_at === null ? null : new Date(expires_at) }),
      updated_at: now,
    };
    const changed = await repo.updateLink(tx, link.id, changes);
    const project = await repo.findProject(tx, who.projectId, undefined);
    await audit(tx, project?.account_id ?? '', changeOf(who, now), 'payment_link.changed', link.id);
    return changed;
  });
}

/** A link's invoices, newest first; NOT_FOUND for another project's link. */
export async function linkInvoices(
  db: Kysely<Database>,
  who: Requester,
  id: string,
  query: { limit: number; page: number },
) {
  const link = await getLink(db, who, id);
  return listLinkInvoices(db, who.projectId, link.id, query);
}
