import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { databaseBefore } from '../../test/database.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';

/**
 * Migration 0022 on collections made before it: each gets the phase its nullable columns implied,
 * a signed one keeps its transaction (now in collection_transactions) and is judged for replacement
 * at once (signed_block 0), and the constraints hold for every old row.
 */
let before: Awaited<ReturnType<typeof databaseBefore>>;
let rows: Array<Record<string, unknown>>;
let stored: Array<Record<string, unknown>>;

beforeAll(async () => {
  before = await databaseBefore('0022');
  const old = await openDatabase(before.url, { bounds: null });
  try {
    await sql`insert into accounts (id, name, status, created_at, updated_at)
              values ('acct_old', 'Old', 'active', now(), now())`.execute(old.db);
    await sql`insert into projects (id, account_id, name, status, currency, network, payment_methods,
                                    invoice_ttl_seconds, created_at, updated_at)
              values ('prj_old', 'acct_old', 'Old', 'active', 'USDT', 'polygon',
                      '[{"network":"polygon","currency":"USDT"}]'::jsonb, 3600, now(), now())`.execute(
      old.db,
    );
    await sql`insert into collections (id, project_id, network, livemode, payout_address, status, nonce, tx_hash,
                                       raw_tx, sent_at, gas_used, block_number, block_hash, last_error,
                                       created_at, confirmed_at, updated_at)
              values
      ('col_queued', 'prj_old', 'polygon', true, '0xP', 'pending', null, null, null, null, null, null, null, 'no_gas', now(), null, now()),
      ('col_signed', 'prj_old', 'polygon', true, '0xP', 'pending', 4, '0xh4', '0xraw4', now(), null, null, null, null, now(), null, now()),
      ('col_mined', 'prj_old', 'polygon', true, '0xP', 'pending', 5, '0xh5', '0xraw5', now(), null, 10, '0xb10', null, now(), null, now()),
      ('col_done', 'prj_old', 'polygon', true, '0xP', 'confirmed', 3, '0xh3', '0xraw3', now(), 50000, 9, '0xb9', null, now(), now(), now()),
      ('col_failed', 'prj_old', 'polygon', true, '0xP', 'failed', null, null, null, null, null, null, null, null, now(), null, now())
    `.execute(old.db);
  } finally {
    await old.close();
  }
  const upgraded = await openDatabase(before.url, { bounds: null });
  try {
    await migrate(upgraded.db);
    rows = (
      await sql<Record<string, unknown>>`select id, phase, attempts, signed_block, last_error
                                         from collections order by id`.execute(upgraded.db)
    ).rows;
    stored = (
      await sql<Record<string, unknown>>`select collection_id, attempt, tx_hash, raw_tx
                                         from collection_transactions order by collection_id`.execute(
        upgraded.db,
      )
    ).rows;
  } finally {
    await upgraded.close();
  }
}, 60_000);

afterAll(() => before?.drop());

test('old collections get the phase their columns implied, and keep their transactions', () => {
  expect(rows).toEqual([
    { id: 'col_done', phase: 'confirmed', attempts: 1, signed_block: '0', last_error: null },
    { id: 'col_failed', phase: 'failed', attempts: 0, signed_block: null, last_error: null },
    { id: 'col_mined', phase: 'mined', attempts: 1, signed_block: '0', last_error: null },
    { id: 'col_queued', phase: 'queued', attempts: 0, signed_block: null, last_error: 'no_gas' },
    { id: 'col_signed', phase: 'signed', attempts: 1, signed_block: '0', last_error: null },
  ]);
  expect(stored).toEqual([
    { collection_id: 'col_done', attempt: 1, tx_hash: '0xh3', raw_tx: '0xraw3' },
    { collection_id: 'col_mined', attempt: 1, tx_hash: '0xh5', raw_tx: '0xraw5' },
    { collection_id: 'col_signed', attempt: 1, tx_hash: '0xh4', raw_tx: '0xraw4' },
  ]);
});
