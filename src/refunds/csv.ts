import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { csvCell } from '../invoices/csv.js';
import { formatMoney, money } from '../money/money.js';
import * as repo from './browse.repository.js';

/**
 * The refunds ready to send, as CSV for a batch payout from a treasury tool (a Safe's CSV airdrop, an
 * exchange's bulk withdrawal): one row per transfer, the token amount first in the columns such tools
 * read (token, network, address, amount), then the references.
 */
const COLUMNS = [
  'network',
  'token',
  'address',
  'token_amount',
  'refund_id',
  'invoice_id',
  'amount',
  'currency',
  'ready_at',
];

const BATCH = 1000;

export function readyRefundsCsv(db: Kysely<Database>, projectId: string): Readable {
  async function* lines() {
    yield `${COLUMNS.join(',')}\r\n`;
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const rows = await repo.readyRefunds(db, projectId, after, BATCH);
      if (rows.length === 0) return;
      yield rows
        .map((r) =>
          [
            r.network,
            r.token,
            r.address,
            r.token_amount && formatMoney(money(r.token_amount)),
            r.id,
            r.invoice_id,
            formatMoney(money(r.amount)),
            r.currency,
            r.ready_at,
          ]
            .map(csvCell)
            .join(','),
        )
        .map((line) => `${line}\r\n`)
        .join('');
      if (rows.length < BATCH) return;
      const last = rows[rows.length - 1] as (typeof rows)[number];
      after = { createdAt: last.created_at, id: last.id };
    }
  }
  return Readable.from(lines());
}
