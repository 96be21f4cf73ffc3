import type { Invoice, InvoicePage } from './types.js';

/** One page when awaited; every invoice of every page, from this one on, when iterated with `for await`. */
export type InvoiceList = Promise<InvoicePage> & AsyncIterable<Invoice>;

/**
 * The first page is asked for at once (as stripe-node's lists are) and is both what `await` gives and
 * where the iteration starts; later pages are fetched as the iteration reaches them.
 */
export function invoiceList(
  fetchPage: (page: number) => Promise<InvoicePage>,
  firstPage: number,
): InvoiceList {
  const first = fetchPage(firstPage);
  // Whoever awaits or iterates sees a failure; a list() nobody awaited must not crash the process.
  first.catch(() => {});
  return Object.assign(first, { [Symbol.asyncIterator]: () => walk(first, fetchPage) });
}

async function* walk(first: Promise<InvoicePage>, fetchPage: (page: number) => Promise<InvoicePage>) {
  const seen = seenBefore();
  let page = await first;
  for (;;) {
    for (const invoice of page.data) if (!seen(invoice)) yield invoice;
    if (!page.pagination.has_more || page.data.length === 0) return;
    page = await fetchPage(page.pagination.page + 1);
  }
}

/**
 * Pages are offsets into a newest-first list, so invoices created during a walk push older ones down,
 * and the last few of one page come again at the top of the next. Those are recognised by position:
 * an invoice newer than the last one yielded, or as new with an id already yielded, came before.
 * (created_at strings have one fixed width, so they compare in time order.)
 */
function seenBefore() {
  let last: string | undefined;
  let idsAtLast = new Set<string>();
  return (invoice: Invoice): boolean => {
    if (last !== undefined && invoice.created_at > last) return true;
    if (invoice.created_at === last && idsAtLast.has(invoice.id)) return true;
    if (invoice.created_at !== last) {
      last = invoice.created_at;
      idsAtLast = new Set();
    }
    idsAtLast.add(invoice.id);
    return false;
  };
}
