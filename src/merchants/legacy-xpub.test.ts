import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { onPostgres } from '../../test/database.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { loadNetworks } from '../networks/registry.js';
import { fileLegacyXpubs } from './service.js';

// An installation of before payment methods upgrades (migration 0010 and the start-up filing of each
// project's single xpub under its family): every project keeps accepting what it accepted, every open
// invoice keeps its address where the watchers look for it, every payment names its token.

const MIGRATIONS = fileURLToPath(new URL('../../migrations/', import.meta.url));
let before: string;

beforeAll(() => {
  before = mkdtempSync(path.join(tmpdir(), 'paydesk-migrations-'));
  for (const f of readdirSync(MIGRATIONS).filter((f) => f < '0010')) {
    copyFileSync(path.join(MIGRATIONS, f), path.join(before, f));
  }
});
afterAll(() => rmSync(before, { recursive: true, force: true }));

// Runs once per CI run, in the PGlite run: it upgrades an embedded database of its own, so the PostgreSQL run would repeat it unchanged.
test.skipIf(onPostgres)(
  'projects, invoices and payments of before come through the upgrade unchanged in meaning',
  async () => {
    const handle = await openDatabase('pglite://memory', { bounds: null });
    const { db } = handle;
    try {
      await migrate(db, before);
      await sql`
      insert into accounts (id, name, status, created_at, updated_at) values ('acct_1', 'A', 'active', now(), now())`.execute(
        db,
      );
      await sql`
      insert into projects (id, account_id, name, status, currency, network, xpub, invoice_ttl_seconds, created_at, updated_at)
      values ('prj_evm', 'acct_1', 'EVM', 'active', 'USDC', 'polygon', ${TEST_XPUB}, 3600, now(), now()),
             ('prj_tron', 'acct_1', 'TRON', 'active', 'USDT', 'tron-nile', ${TRON_TEST_XPUB}, 3600, now(), now()),
             ('prj_sbx', 'acct_1', 'Sandbox', 'active', 'USDT', 'sandbox', null, 3600, now(), now())`.execute(
        db,
      );
      await sql`
      insert into invoices (id, project_id, status, amount, currency, network, metadata, payment_expires_at,
                            pay_address, address_index, due_at, open_until, created_at, updated_at)
      values ('inv_evm', 'prj_evm', 'pending', 10, 'USDC', 'polygon', '{}', now() + interval '1 hour',
              '0x00000000000000000000000000000000000000aA', 7, now() + interval '1 hour', now() + interval '1 day', now(), now()),
             ('inv_tron', 'prj_tron', 'pending', 10, 'USDT', 'tron-nile', '{}', now() + interval '1 hour',
              'TQ5NMrsqyw8L5r5DS8nnNgUhhfE1vKsF8J', 3, now() + interval '1 hour', now() + interval '1 day', now(), now()),
             ('inv_sbx', 'prj_sbx', 'pending', 10, 'USDT', 'sandbox', '{}', now() + interval '1 hour',
              '0x1111111111111111111111111111111111111111', null, now() + interval '1 hour', now() + interval '1 day', now(), now())`.execute(
        db,
      );
      await sql`
      insert into payments (invoice_id, tx_hash, network, amount, status, seen_at)
      values ('inv_evm', '0xabc', 'polygon', 4, 'pending', now())`.execute(db);

      // 0010 first; later migrations (0011_rates …) follow it and change nothing this test reads.
      expect((await migrate(db))[0]).toBe('0010_payment_methods');
      await fileLegacyXpubs(db, loadNetworks({}));

      const projects = await db
        .selectFrom('projects')
        .select(['id', 'payment_methods', 'evm_xpub', 'tron_xpub', 'underpayment_tolerance_percent'])
        .orderBy('id')
        .execute();
      expect(projects).toEqual([
        {
          id: 'prj_evm',
          payment_methods: [{ network: 'polygon', currency: 'USDC' }],
          evm_xpub: TEST_XPUB,
          tron_xpub: null,
          underpayment_tolerance_percent: '0.00',
        },
        {
          id: 'prj_sbx',
          payment_methods: [{ network: 'sandbox', currency: 'USDT' }],
          evm_xpub: null,
          tron_xpub: null,
          underpayment_tolerance_percent: '0.00',
        },
        {
          id: 'prj_tron',
          payment_methods: [{ network: 'tron-nile', currency: 'USDT' }],
          evm_xpub: null,
          tron_xpub: TRON_TEST_XPUB,
          underpayment_tolerance_percent: '0.00',
        },
      ]);

      const invoices = await db
        .selectFrom('invoices')
        .select([
          'id',
          'network',
          'pay_address',
          'payment_methods',
          'evm_address',
          'evm_address_index',
          'tron_address',
          'tron_address_index',
        ])
        .orderBy('id')
        .execute();
      expect(invoices).toEqual([
        {
          id: 'inv_evm',
          network: 'polygon',
          pay_address: '0x00000000000000000000000000000000000000aA',
          payment_methods: [
            {
              network: 'polygon',
              currency: 'USDC',
              pay_address: '0x00000000000000000000000000000000000000aA',
              decimals: 6,
            },
          ],
          evm_address: '0x00000000000000000000000000000000000000aA',
          evm_address_index: '7',
          tron_address: null,
          tron_address_index: null,
        },
        {
          id: 'inv_sbx',
          network: 'sandbox',
          pay_address: '0x1111111111111111111111111111111111111111',
          payment_methods: [
            {
              network: 'sandbox',
              currency: 'USDT',
              pay_address: '0x1111111111111111111111111111111111111111',
              decimals: 6,
            },
          ],
          evm_address: null,
          evm_address_index: null,
          tron_address: null,
          tron_address_index: null,
        },
        {
          id: 'inv_tron',
          network: 'tron-nile',
          pay_address: 'TQ5NMrsqyw8L5r5DS8nnNgUhhfE1vKsF8J',
          payment_methods: [
            {
              network: 'tron-nile',
              currency: 'USDT',
              pay_address: 'TQ5NMrsqyw8L5r5DS8nnNgUhhfE1vKsF8J',
              decimals: 6,
            },
          ],
          evm_address: null,
          evm_address_index: null,
          tron_address: 'TQ5NMrsqyw8L5r5DS8nnNgUhhfE1vKsF8J',
          tron_address_index: '3',
        },
      ]);
      const payments = await db.selectFrom('payments').select(['tx_hash', 'currency']).execute();
      expect(payments).toEqual([{ tx_hash: '0xabc', currency: 'USDC' }]);
    } finally {
      await handle.close();
    }
  },
);
