import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  type ChainTokens,
  chainMerchant,
  deployTokens,
  getInvoice,
  LOCAL,
  localNetworkEnv,
  newInvoice,
} from '../../test/chain-app.js';
import { accountHex, FAMILY } from '../networks/family.js';
import { chainReader } from './rpc.js';
import { type ScanContext, scanStep } from './scan.js';

// A watcher back from an outage finds more payments in one range than one transaction may write
// within the database's bound. Each step then writes at most its share, never splitting a block, and
// moves its cursor only past what it wrote. A real Hardhat node; the steps are run by hand (no
// workers), with a limit of 2 payments a step standing in for the production 1,000.
let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  t = await startTestApp({ env: localNetworkEnv(chain, tokens, { confirmations: 1 }) });
  m = await chainMerchant(t);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

function context(): ScanContext {
  const usdt = accountHex(FAMILY.evm, tokens.usdt);
  return {
    db: t.database.db,
    network: {
      name: LOCAL,
      family: 'evm',
      confirmations: 1,
      maxBlockRange: 100,
      tokens: new Map([['USDT', { address: usdt, decimals: 6 }]]),
      byContract: new Map([[usdt, { currency: 'USDT' as const, decimals: 6 }]]),
      test: true, // the local chain is a testnet (localNetworkEnv)
      maxPaymentsPerStep: 2,
    },
    reader: chainReader(chain.rpcUrl, { family: FAMILY.evm }),
    now: () => new Date(),
    publicBaseUrl: 'http://paydesk.test',
  };
}

const cursor = async () =>
  BigInt(
    (
      await t.database.db
        .selectFrom('chain_cursors')
        .select('block_number')
        .where('network', '=', LOCAL)
        .executeTakeFirstOrThrow()
    ).block_number,
  );

test('a range with more payments than a step may write is written over several steps, none lost', async () => {
  const ctx = context();
  const invoices = await Promise.all(Array.from({ length: 5 }, () => newInvoice(t, m, '1.00')));
  await scanStep(ctx); // the watcher starts here, before the payments
  const start = await cursor();
  // Five payments, one block each (Hardhat mines a block per transaction).
  const blocks: bigint[] = [];
  for (const inv of invoices) {
    await chain.transfer(tokens.usdt, inv.pay_address, 1_000_000n);
    blocks.push(await chain.blockNumber());
  }
  await chain.mine(1);

  expect(await scanStep(ctx)).toBe(true); // behind: it wrote two and stopped
  expect(await cursor()).toBe(blocks[1]);
  expect((await getInvoice(t, m, invoices[0]?.id as string)).status).toBe('paid');
  expect((await getInvoice(t, m, invoices[2]?.id as string)).status).toBe('pending');

  while (await scanStep(ctx));
  expect(await cursor()).toBe(await chain.blockNumber());
  expect(await cursor()).toBeGreaterThan(start);
  for (const inv of invoices) {
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'paid', amount_paid: '1.00' });
  }
}, 60_000);
