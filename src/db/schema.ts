/**
 * Every table Kysely knows about. Each feature declares its own tables in its `*.table.ts`, adding
 * them to this interface by declaration merging:
 *
 *   declare module '../db/schema.js' {
 *     interface Database { invoices: InvoiceTable }
 *   }
 *
 * so the database layer depends on no feature, and a feature's tables live beside its SQL.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by each feature's *.table.ts (see above)
export interface Database {}
