import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { newEvent } from '../events/body.js';
import { FACTORY_ADDRESS, forwarderAddress } from '../forwarders/address.js';
import { invoiceSalt } from '../forwarders/salt.js';
import { ApiError } from '../http/errors.js';
import { offsetOf, pagination } from '../http/pagination.js';
import { newId } from '../ids.js';
import type { Principal } from '../merchants/authenticate.js';
import { isFiat } from '../money/currencies.js';
import { formatMoney, type Money, parseInvoiceAmount } from '../money/money.js';
import { type DepositAddress, newDepositAddresses } from '../networks/deposit-address.js';
import { livemodeOf, offeredNow } from '../networks/livemode.js';
import { type AddressKind, addressKind, type PaymentMethod, tokenDecimals } from '../networks/methods.js';
import type { NetworkRegistry } from '../networks/network.js';
import { solanaReference } from '../networks/solana-pay.js';
import type { RateBook } from '../rates/book.js';
import { RateUnavailableError } from '../rates/errors.js';
import type { Watching } from '../watch/watched.js';
import { requestFingerprint, reusedKeyError } from './idempotency.js';
import { type Invoice, toInvoice } from './invoice.js';
import type { InvoiceRow } from './invoice.table.js';
import { opened, schedule } from './lifecycle.js';
import { evmDeposit, watchedMethods } from './offer.js';
import { atPar, priceInvoice } from './pricing.js';
import type { InvoiceView, InvoiceWithPayments } from './repository.js';
import * as repo from './repository.js';
import type { InvoiceStatus } from './status.js';

export interface NewInvoiceInput {
  amount: string;
  order_id?: string | null | undefined;
  description?: string | null | undefined;
  metadata?: Record<string, string> | null | undefined;
  redirect_url?: string | null | undefined;
  cancel_url?: string | null | undefined;
  /** Offer only this network's methods (contract §15). */
  network?: string | null | undefined;
}

/**
 * Who sells: an API caller, or a till of src/pos, which has no API key (keyId null: the statement
 * checks the till, its project and account are live instead). `tillId` is stored on the invoice.
 */
export type Seller = Omit<Principal, 'keyId'> & { keyId: string | null; tillId?: string | undefined };

export interface Created {
  invoice: InvoiceWithPayments;
  /** True when an earlier request with the same Idempotency-Key made it. */
  replayed: boolean;
  /** Its API shape, when already made (a new invoice's, shared with its `invoice.created` event). */
  view?: Invoice | undefined;
}

export interface InvoiceContext {
  now: Date;
  publicBaseUrl: string;
  /** Where deposit addresses come from: the network's family writes them. */
  networks: NetworkRegistry;
  /** Where an invoice priced in another currency gets its rate (contract §19). */
  rates: RateBook;
  /** PAYDESK_DUST_PERCENT: kept by the invoice for its lifetime (contract §21). */
  dustPercent: string;
  /** Which networks (and forwarders) may be offered to payers (contract §21). */
  watching: Watching;
}

/** What an invoice takes from its project: the API key's principal, or a payment link's project. */
export type InvoiceProject = Pick<
  Principal,
  | 'projectId'
  | 'currency'
  | 'methods'
  | 'tolerancePercent'
  | 'invoiceTtlSeconds'
  | 'payoutAddress'
  | 'hasEvmXpub'
  | 'solanaAddress'
>;

/** Where an invoice came from, beside the API's fields: a payment link and its payer, or a till (contract §25). */
export interface InvoiceOrigin {
  paymentLinkId: string | null;
  payerEmail: string | null;
  payerLanguage: string | null;
  tillId?: string | null | undefined;
}

const FROM_API: InvoiceOrigin = { paymentLinkId: null, payerEmail: null, payerLanguage: null };

/** Creates a pending invoice on the caller's project; currency, network and expiry come from the project. */
export async function createInvoice(
  db: Kysely<Database>,
  principal: Seller,
  input: NewInvoiceInput,
  idempotencyKey: string | undefined,
  ctx: InvoiceContext,
): Promise<Created> {
  const amount = parsedAmount(input, principal.currency);
  const offer = offerOf(principal, input, ctx);
  const claim =
    idempotencyKey === undefined
      ? undefined
      : {
          key: idempotencyKey,
          fingerprint: requestFingerprint({
            amount: formatMoney(amount),
            order_id: input.order_id ?? undefined,
            description: input.description ?? undefined,
            metadata: input.metadata ?? {},
            redirect_url: input.redirect_url ?? null,
            cancel_url: input.cancel_url ?? null,
            network: input.network ?? undefined,
          }),
        };
  const pricing = priced_(principal, amount, offer.methods, ctx);
  const priced =
    pricing instanceof Promise
      ? await pricing.catch(async (err) => {
          // A retry of a create that was made while a rate was at hand is a replay, rate or no rate.
          if (err instanceof RateUnavailableError && claim) {
            const replay = await replayOf(db, principal.projectId, claim);
            if (replay) return replay;
          }
          throw err;
        })
      : pricing;
  if ('invoice' in priced) return priced;
  const origin = principal.tillId ? { ...FROM_API, tillId: principal.tillId } : FROM_API;
  const { invoice, view, created } = await assemble(db, principal, input, priced, offer, ctx, origin);
  // Nothing written means the API key was not live in the statement's snapshot, or the idempotency
  // key was taken. confirm() answers the first with its auth error; the second replays. A second try
  // settles the two rare races in between: a key live again (a project re-activated meanwhile), or a
  // claim purged between our insert and our read.
  for (let attempt = 1; attempt <= 2; attempt++) {
    const inserted = await repo.insertInvoice(db, { invoice, created, keyId: principal.keyId, claim });
    // The row is ours alone (assemble made it for this request): given its empty lists in place, not
    // copied field by field (issue 37).
    if (inserted)
      return { invoice: Object.assign(invoice, { payments: [], refunds: [] }), replayed: false, view };
    await principal.confirm();
    if (!claim) continue;
    const replay = await replayOf(db, principal.projectId, claim);
    if (replay) return replay;
  }
  throw new Error('invoice insert wrote nothing for a live key');
}

/**
 * A payer's invoice from a payment link (src/links): no API key. `claim` runs first in the insert's
 * transaction (it takes the link's use under the link row's lock) and throws to refuse: the use and
 * the invoice commit together or not at all.
 */
export async function createLinkInvoice(
  db: Kysely<Database>,
  project: InvoiceProject,
  input: NewInvoiceInput,
  origin: InvoiceOrigin,
  ctx: InvoiceContext,
  claim: (tx: Kysely<Database>) => Promise<void>,
): Promise<Invoice> {
  const amount = parsedAmount(input, project.currency);
  const offer = offerOf(project, input, ctx);
  const priced = await priced_(project, amount, offer.methods, ctx);
  const { invoice, view, created } = await assemble(db, project, input, priced, offer, ctx, origin);
  await db.transaction().execute(async (tx) => {
    await claim(tx);
    await repo.insertLinkInvoice(tx, { invoice, created });
  });
  return view;
}

function parsedAmount(input: NewInvoiceInput, currency: string): Money {
  const amount = parseInvoiceAmount(input.amount, 'amount', currency);
  if (!amount.ok) {
    throw ApiError.validation([{ in: 'body', field: 'amount', rule: amount.rule, message: amount.message }]);
  }
  return amount.value;
}

type Offer = { methods: Array<PaymentMethod & { decimals: number }>; forwarder: boolean };

function offerOf(project: InvoiceProject, input: NewInvoiceInput, ctx: InvoiceContext): Offer {
  const wanted = watchedMethods(
    offeredMethods(ctx.networks, project, input.network ?? undefined),
    ctx.watching,
  );
  const deposit = evmDeposit(wanted, project, ctx.networks, ctx.watching);
  const methods = deposit.methods.map((m) => {
    const decimals = tokenDecimals(ctx.networks, m);
    // Methods are checked against the registry when set; a network since removed cannot be offered.
    if (decimals === undefined) throw new Error(`${m.currency} on ${m.network} is no longer configured`);
    return { ...m, decimals };
  });
  return { methods, forwarder: deposit.forwarder };
}

type Priced = { rate: InvoiceRow['rate']; tokenAmount: Money; amount: Money };

/**
 * Priced before anything is written: without a rate, nothing is stored (contract §19). At par (USD
 * and the tokens) nothing is looked up: the hot path stays free of any await.
 */
function priced_(
  project: InvoiceProject,
  amount: Money,
  methods: Offer['methods'],
  ctx: InvoiceContext,
): Priced | Promise<Priced> {
  if (!isFiat(project.currency)) return { ...atPar(amount), amount };
  const first = (methods[0] as PaymentMethod).currency;
  const decimals = Math.min(...methods.map((m) => m.decimals));
  return priceInvoice(ctx.rates, project.currency, amount, first, decimals).then((p) => ({ ...p, amount }));
}

/** The new invoice's row, its API shape and its `invoice.created` event: nothing written yet but addresses. */
async function assemble(
  db: Kysely<Database>,
  project: InvoiceProject,
  input: NewInvoiceInput,
  priced: Priced,
  offer: Offer,
  ctx: InvoiceContext,
  origin: InvoiceOrigin,
) {
  const { methods } = offer;
  const id = newId('inv');
  const expiresAt = new Date(ctx.now.getTime() + project.invoiceTtlSeconds * 1000);
  const toleranceBasisPoints = Math.round(Number(project.tolerancePercent) * 100);
  const { dueAt, openUntil } = schedule(opened(priced.tokenAmount, expiresAt, toleranceBasisPoints));
  const forwarder =
    offer.forwarder && project.payoutAddress
      ? forwarderAddress(FACTORY_ADDRESS, project.payoutAddress, invoiceSalt(project.projectId, id))
      : undefined;
  const addresses = await newDepositAddresses(
    db,
    ctx.networks,
    project.projectId,
    methods,
    id,
    forwarder,
    project.solanaAddress,
  );
  const offered = methods.map((m) => {
    const kind = addressKind(ctx.networks, m.network) as AddressKind;
    return { ...m, pay_address: (addresses[kind] as DepositAddress).address };
  });
  const only = offered.length === 1 ? offered[0] : undefined;
  const invoice: InvoiceRow = {
    id,
    project_id: project.projectId,
    status: 'pending',
    amount: formatMoney(priced.amount),
    currency: project.currency,
    rate: priced.rate,
    token_amount: formatMoney(priced.tokenAmount),
    network: only?.network ?? null,
    payment_methods: offered,
    order_id: input.order_id ?? null,
    description: input.description ?? null,
    // As the database gives it back (jsonb orders keys): the answer reads as every later GET does.
    metadata: inJsonbOrder(input.metadata ?? {}),
    redirect_url: input.redirect_url ?? null,
    cancel_url: input.cancel_url ?? null,
    payment_expires_at: expiresAt,
    paid_at: null,
    tx_hash: null,
    pay_address: only?.pay_address ?? null,
    evm_address: addresses.evm?.address ?? null,
    evm_address_index: addresses.evm?.index ?? null,
    tron_address: addresses.tron?.address ?? null,
    tron_address_index: addresses.tron?.index ?? null,
    solana_address: addresses.solana?.address ?? null,
    solana_reference: addresses.solana ? solanaReference(id) : null,
    // The payout its forwarder can send to, kept: a later change of the project's never moves it.
    payout_address: addresses.evm && forwarder ? project.payoutAddress : null,
    underpayment_tolerance_percent: project.tolerancePercent,
    // Decided once, from what it offers: live or test for its lifetime (contract §21).
    livemode: livemodeOf(ctx.networks, offered),
    till_id: origin.tillId ?? null,
    dust_percent: ctx.dustPercent,
    amount_paid: '0.00',
    amount_refunded: '0.00',
    amount_after_close: '0.00',
    paid_late: false,
    failure_reason: null,
    due_at: dueAt,
    open_until: openUntil,
    payment_link_id: origin.paymentLinkId,
    payer_email: origin.payerEmail,
    payer_language: origin.payerLanguage,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  // The row written is this one, column for column: the answer is made from it, not read back, and
  // the event's invoice and the answer's are the same object.
  const view = toInvoice(invoice, ctx.publicBaseUrl, [], []);
  const created = newEvent(
    invoice.project_id,
    id,
    'invoice.created',
    { invoice: view, previous_status: null },
    ctx.now,
    invoice.livemode,
  );
  return { invoice, view, created };
}

/**
 * An object with jsonb's key order (shorter keys first, then bytewise), so that it enumerates as the
 * same object read back from a jsonb column does.
 */
function inJsonbOrder(o: Record<string, string>): Record<string, string> {
  const keys = Object.keys(o);
  if (keys.length < 2) return o;
  const bytes = (k: string) => Buffer.from(k, 'utf8');
  keys.sort((a, b) => bytes(a).length - bytes(b).length || Buffer.compare(bytes(a), bytes(b)));
  const out: Record<string, string> = {};
  for (const k of keys) out[k] = o[k] as string;
  return out;
}

/** The invoice an idempotency key already made, if any (VALIDATION_ERROR when made by another request). */
async function replayOf(
  db: Kysely<Database>,
  projectId: string,
  claim: { key: string; fingerprint: string },
): Promise<Created | undefined> {
  const existing = await repo.findClaimedInvoice(db, projectId, claim.key);
  if (!existing) return undefined;
  if (existing.request_hash !== claim.fingerprint) throw reusedKeyError('invoice');
  const { request_hash: _, ...replayed } = existing;
  return { invoice: replayed, replayed: true };
}

/**
 * The project's methods, or only those of the network the request names (VALIDATION_ERROR if none).
 * A project that still mixes live and test methods (saved before contract §21) offers its live ones.
 */
function offeredMethods(
  networks: NetworkRegistry,
  principal: InvoiceProject,
  network: string | undefined,
): readonly PaymentMethod[] {
  const all = offeredNow(networks, principal.methods);
  if (network === undefined) return all;
  const methods = all.filter((m) => m.network === network);
  if (methods.length > 0) return methods;
  const accepted = [...new Set(all.map((m) => m.network))].join(', ');
  throw ApiError.validation([
    {
      in: 'body',
      field: 'network',
      rule: 'not_accepted',
      message: `this project does not accept payments on ${network}; it accepts: ${accepted}`,
    },
  ]);
}

export async function getInvoice(
  db: Kysely<Database>,
  principal: Principal,
  id: string,
): Promise<InvoiceView> {
  // A malformed id, an unknown one and another project's all take the same query and answer alike
  // (contract §4), so neither the body nor the timing tells them apart.
  const row = await repo.findInvoice(db, principal.projectId, id, principal.keyId);
  if (!row) {
    await principal.confirm(); // the guard also fails for a key revoked since it was cached
    throw ApiError.notFound('No invoice with this id');
  }
  return row;
}

/** Any invoice by id, whatever its project: for the operator's calls (sandbox payments). */
export function findInvoiceById(db: Kysely<Database>, id: string): Promise<InvoiceWithPayments | undefined> {
  return repo.findInvoiceById(db, id);
}

export interface ListQuery {
  status?: string | undefined;
  order_id?: string | undefined;
  limit: number;
  page: number;
}

export async function listInvoices(db: Kysely<Database>, principal: Principal, query: ListQuery) {
  const filter = {
    statuses:
      query.status === undefined ? undefined : ([...new Set(query.status.split(','))] as InvoiceStatus[]),
    orderId: query.order_id,
  };
  const { rows, total, live } = await repo.listInvoices(
    db,
    principal.projectId,
    filter,
    { limit: query.limit, offset: offsetOf(query) },
    principal.keyId,
  );
  if (!live) await principal.confirm();
  return { rows, pagination: pagination(query, total) };
}

/** A payment link's invoices, a page of them (the link's project was checked by the caller, src/links). */
export async function listLinkInvoices(
  db: Kysely<Database>,
  projectId: string,
  linkId: string,
  query: { limit: number; page: number },
) {
  const { rows, total } = await repo.listLinkInvoices(db, projectId, linkId, {
    limit: query.limit,
    offset: offsetOf(query),
  });
  return { rows, pagination: pagination(query, total) };
}
