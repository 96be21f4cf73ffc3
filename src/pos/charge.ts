import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ApiError } from '../http/errors.js';
import { createInvoice, type InvoiceContext, type Seller } from '../invoices/service.js';
import { findSellingProject } from './repository.js';
import { formatMinor, MAX_QUANTITY, parsePrice, priceSale, type Sale } from './sale.js';
import type { TillRow } from './till.table.js';

/** What the till's "Charge" sends: the keypad's amount and a quantity per item, by position. */
export interface Cart {
  amount: string;
  quantities: string[];
}

const DESCRIPTION_MAX = 500;

/** The cart priced by sale.ts (total zero when empty), or a VALIDATION_ERROR naming what is wrong. */
export function priceCart(till: TillRow, cart: Cart): Sale {
  const custom = cart.amount === '' ? 0n : parsePrice(cart.amount, till.currency);
  if (custom === undefined) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'amount',
        rule: 'format',
        message: `The amount must be a price such as "12.50" (${till.currency})`,
      },
    ]);
  }
  if (cart.quantities.length > till.items.length || cart.quantities.some((q) => !/^[0-9]{1,3}$/.test(q))) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'qty',
        rule: 'quantity',
        message: `Each quantity must be a whole number from 0 to ${MAX_QUANTITY}`,
      },
    ]);
  }
  return priceSale(till.items, cart.quantities.map(Number), custom, till.currency);
}

function saleOf(till: TillRow, cart: Cart): Sale {
  const sale = priceCart(till, cart);
  if (sale.total <= 0n) {
    throw ApiError.validation([
      {
        in: 'body',
        field: 'amount',
        rule: 'positive',
        message: 'Type an amount or add an item before charging',
      },
    ]);
  }
  return sale;
}

/** "2 × Espresso, 1 × Croissant, 3.00 · tax 0.39": what the invoice is for, within its 500 characters. */
export function describeSale(sale: Sale, currency: string): string {
  const parts = sale.lines.map((l) => `${l.quantity} × ${l.name}`);
  if (sale.custom > 0n) parts.push(formatMinor(sale.custom, currency));
  const text = `${parts.join(', ')}${sale.tax > 0n ? ` · tax ${formatMinor(sale.tax, currency)}` : ''}`;
  return Array.from(text).length <= DESCRIPTION_MAX
    ? text
    : `${Array.from(text)
        .slice(0, DESCRIPTION_MAX - 1)
        .join('')}…`;
}

/**
 * "Charge": an invoice for the cart's total, made by the same create service as the API's, with the
 * till's id on it. The till has no API key: the create statement checks the till and its project are
 * live instead (merchants/repository.ts liveTill).
 */
export async function chargeTill(db: Kysely<Database>, till: TillRow, cart: Cart, ctx: InvoiceContext) {
  const sale = saleOf(till, cart);
  const project = await findSellingProject(db, till.project_id);
  // A till whose project changed its currency since sells nothing until it is made again.
  if (
    project?.status !== 'active' ||
    project.account_status !== 'active' ||
    project.currency !== till.currency
  ) {
    throw ApiError.notFound('This till does not exist or is disabled');
  }
  const seller: Seller = {
    keyId: null,
    tillId: till.id,
    projectId: project.id,
    currency: project.currency,
    network: project.network,
    methods: project.payment_methods,
    tolerancePercent: project.underpayment_tolerance_percent,
    invoiceTtlSeconds: project.invoice_ttl_seconds,
    payoutAddress: project.payout_address,
    solanaAddress: project.solana_address,
    hasEvmXpub: project.evm_xpub !== null,
    confirm: async () => {
      throw ApiError.notFound('This till does not exist or is disabled');
    },
  };
  const input = {
    amount: formatMinor(sale.total, till.currency),
    description: describeSale(sale, till.currency),
  };
  const { invoice } = await createInvoice(db, seller, input, undefined, ctx);
  return { invoice, sale };
}
