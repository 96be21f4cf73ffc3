/** Paid invoices per project and UTC day, kept by triggers on invoices (migration 0006). */
export interface InvoicePaidDailyTable {
  project_id: string;
  day: Date;
  shard: number;
  n: string;
  volume: string;
}

declare module '../db/schema.js' {
  interface Database {
    invoice_paid_daily: InvoicePaidDailyTable;
  }
}
