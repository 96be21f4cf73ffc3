import { sql } from 'kysely';
import type { Address } from 'viem';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { admin, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  type ChainTokens,
  caughtUp,
  chainMerchant,
  deployTokens,
  getInvoice,
  LOCAL,
  localNetworkEnv,
  newInvoice,
} from '../../test/chain-app.js';
import { eventually } from '../../test/webhooks.js';

// The watcher runs as in production (the app's workers, on a real Hardhat node); a PostgreSQL trigger
// makes one table refuse every write, as if the process died at that write, again and again, until
// the test lets it through. While it is down the chain reorganises, dropping the payment's block.

// Every table the watcher's transaction writes. (webhook_deliveries no longer is one: the webhook
// workers fan events out into deliveries in a transaction of their own, src/webhooks/fan-out.ts.)
const TABLES = ['payments', 'invoices', 'events', 'chain_cursors', 'chain_blocks'];

let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  t = await startTestApp({
    env: { ...localNetworkEnv(chain, tokens, { confirmations: 3 }), PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true' },
    workers: [`chain-scan:${LOCAL}`],
  });
  m = await chainMerchant(t);
  // An endpoint, so that the watcher's events are ones a webhook would carry.
  await admin(t.app, 'POST', `/v1/admin/projects/${m.projectId}/webhook-endpoints`, {
    url: 'http://127.0.0.1:9/hooks',
  });
  await sql`create sequence injected_failures`.execute(t.database.db);
  await sql`create function fail_write() returns trigger language plpgsql as $$
    begin
      perform nextval('injected_failures');
      raise exception 'injected failure on %', tg_table_name;
    end $$`.execute(t.database.db);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const failures = async () =>
  Number(
    (await sql<{ n: string }>`select last_value as n from injected_failures`.execute(t.database.db)).rows[0]
      ?.n,
  );

async function refuseWrites(table: string) {
  await sql`create trigger fail_write before insert or update or delete on ${sql.table(table)}
    for each statement execute function fail_write()`.execute(t.database.db);
}
const allowWrites = (table: string) =>
  sql`drop trigger fail_write on ${sql.table(table)}`.execute(t.database.db);

const standing = (invoiceId: string) =>
  t.database.db
    .selectFrom('payments')
    .select(['tx_hash', 'status', 'amount'])
    .where('invoice_id', '=', invoiceId)
    .where('status', '<>', 'reversed')
    .execute();

test.each(TABLES)(
  'a failure writing %s between seeing a transfer and storing it loses nothing and counts nothing twice',
  async (table) => {
    const inv = await newInvoice(t, m, '10.00');
    await caughtUp(t, chain);
    const before = await chain.snapshot();
    const failed = await failures();
    await refuseWrites(table);
    await chain.transfer(tokens.usdt, inv.pay_address as Address, 10_000_000n);
    await chain.mine(1);
    // The watcher sees the transfer and fails at the write, over and over.
    await eventually(async () => (await failures()) > failed);

    // While it is down, the block with the transfer is dropped for a longer fork without it.
    await chain.revert(before);
    await chain.mine(3);
    await allowWrites(table);
    await caughtUp(t, chain);
    expect(await getInvoice(t, m, inv.id)).toMatchObject({
      status: 'pending',
      tx_hash: null,
      amount_paid: '0.00',
    });
    expect(await standing(inv.id)).toEqual([]);

    // Paid for good afterwards, it is paid once, for exactly its amount.
    const tx = await chain.transfer(tokens.usdt, inv.pay_address as Address, 10_000_000n);
    await chain.mine(3);
    const paid = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid).toMatchObject({ amount_paid: '10.00', tx_hash: tx });
    expect(await standing(inv.id)).toEqual([
      { tx_hash: tx, status: 'confirmed', amount: '10.000000000000000000' },
    ]);
  },
  60_000,
);
