import type { Address } from 'viem';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMerchant, type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import { type ChainTokens, caughtUp, deployTokens, getInvoice, newInvoice } from '../../test/chain-app.js';
import { money, toTokenUnits } from '../money/money.js';

/**
 * Contract §21 on two real Hardhat nodes through the real app and its watchers: a mainnet and its
 * testnet, the same tokens at the same contract addresses, and so the same EVM deposit address on
 * both. Faucet tokens sent on the testnet to a live invoice's address never reach it, even when the
 * invoice (made before the rule) lists the testnet among its methods; on the mainnet the same
 * transfer pays it.
 */
let main: LocalChain;
let testnet: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
const clock = manualClock();

const network = (name: string, chain: LocalChain, isTest: boolean) => ({
  name,
  label: name,
  chainId: chain.chainId,
  testnet: isTest,
  confirmations: 1,
  pollIntervalMs: 100,
  maxBlockRange: 100,
  tokens: {
    USDT: { address: tokens.usdt, decimals: 6 },
    USDC: { address: tokens.usdc, decimals: 6 },
  },
});

beforeAll(async () => {
  main = await startChain({ chainId: 31_337 });
  testnet = await startChain({ chainId: 31_338 });
  tokens = await deployTokens(main);
  // Deployed the same way by the same account: the same contract addresses on the testnet.
  expect(await deployTokens(testnet)).toEqual(tokens);
  t = await startTestApp({
    clock,
    workers: ['chain-scan:localmain', 'chain-scan:localtest'],
    env: {
      PAYDESK_NETWORKS: JSON.stringify([
        network('localmain', main, false),
        network('localtest', testnet, true),
      ]),
      PAYDESK_RPC_LOCALMAIN: main.rpcUrl,
      PAYDESK_RPC_LOCALTEST: testnet.rpcUrl,
    },
  });
  m = await createMerchant(t.app, {
    currency: 'USDT',
    payment_methods: [{ network: 'localmain', currency: 'USDT' }],
    evm_xpub: TEST_XPUB,
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const send = (chain: LocalChain, to: Address, amount: string) =>
  chain.transfer(tokens.usdt, to, toTokenUnits(money(amount), 6));

test('a testnet transfer to a live invoice is not its money in any form; the mainnet one pays it', async () => {
  const inv = await newInvoice(t, m, '10.00');
  expect(inv.livemode).toBe(true);
  // As an invoice of a project that mixed them before the rule: it lists the testnet too.
  await t.database.db
    .updateTable('invoices')
    .set({
      payment_methods: JSON.stringify([
        { network: 'localmain', currency: 'USDT', pay_address: inv.pay_address, decimals: 6 },
        { network: 'localtest', currency: 'USDT', pay_address: inv.pay_address, decimals: 6 },
      ]),
    })
    .where('id', '=', inv.id)
    .execute();
  await send(testnet, inv.pay_address, '10.00');
  await testnet.mine(2);
  await caughtUp(t, testnet, 30_000, 'localtest');
  expect(await getInvoice(t, m, inv.id)).toMatchObject({
    status: 'pending',
    amount_paid: '0.00',
    payments: [],
  });
  const events = await t.database.db
    .selectFrom('events')
    .select('type')
    .where('invoice_id', '=', inv.id)
    .execute();
  expect(events.map((e) => e.type)).toEqual(['invoice.created']);

  await send(main, inv.pay_address, '10.00');
  await main.mine(2);
  await caughtUp(t, main, 30_000, 'localmain');
  expect(await getInvoice(t, m, inv.id)).toMatchObject({
    status: 'paid',
    livemode: true,
    amount_paid: '10.00',
    payments: [{ network: 'localmain', status: 'confirmed' }],
  });
});

test('on a test project the testnet pays, as before', async () => {
  const testProject = await createMerchant(t.app, {
    currency: 'USDT',
    payment_methods: [{ network: 'localtest', currency: 'USDT' }],
    evm_xpub: TEST_XPUB,
  });
  const inv = await newInvoice(t, testProject, '3.00');
  expect(inv.livemode).toBe(false);
  await send(testnet, inv.pay_address, '3.00');
  await testnet.mine(2);
  await caughtUp(t, testnet, 30_000, 'localtest');
  expect(await getInvoice(t, testProject, inv.id)).toMatchObject({
    status: 'paid',
    livemode: false,
    amount_paid: '3.00',
  });
});
