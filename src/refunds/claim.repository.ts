import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;
type Tx = Transaction<Database>;

// What the payer's claim page reads: its refund by the link's hash, and how far the watcher got.

/** The refund a claim token opens, with what its page shows. */
export function findByClaim(db: Db | Tx, tokenHash: string) {
  return db
    .selectFrom('refunds')
    .innerJoin('invoices', 'invoices.id', 'refunds.invoice_id')
    .innerJoin('projects', 'projects.id', 'refunds.project_id')
    .leftJoin('project_logos as l', 'l.project_id', 'projects.id')
    .selectAll('refunds')
    .select([
      'invoices.rate',
      'invoices.payment_methods',
      // What the claim page shows of the project: its name and branding, nothing else.
      'projects.name as project_name',
      'projects.brand_color',
      'l.hash as logo_hash',
      'l.width as logo_width',
      'l.height as logo_height',
    ])
    .where('refunds.claim_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export type ClaimRow = NonNullable<Awaited<ReturnType<typeof findByClaim>>>;

/**
 * The watcher's cursor on a network, read as plain SQL: the chain watcher depends on this module (it
 * reports refund transfers here), so this module must not import the watcher's.
 */
export async function watchedUpTo(tx: Tx, network: string): Promise<string | null> {
  const { rows } = await sql<{ block_number: string }>`
    select block_number::text as block_number from chain_cursors where network = ${network}`.execute(tx);
  return rows[0]?.block_number ?? null;
}
