import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  asTron,
  type ChainTokens,
  caughtUp,
  deployTokens,
  fromTron,
  getInvoice,
  newInvoice,
  TRON_LOCAL,
  tronMerchant,
  tronNetworkEnv,
} from '../../test/chain-app.js';
import { eventually } from '../../test/webhooks.js';
import { money, toTokenUnits } from '../money/money.js';

// USDT on TRON (contract §14), end to end: the real app and its watcher, a real Hardhat node speaking
// the JSON-RPC a TRON full node speaks, configured as `tron-nile` (tronNetworkEnv in test/chain-app.ts).
// Deposit addresses are T…; the watcher filters by 20-byte hex and maps recipients back to T…; a
// payment is final at TRON's depth of 19 blocks, its own included.
const USD = (amount: string) => toTokenUnits(money(amount), 6);
const DEPTH = 19;

let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
const clock = manualClock();

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  t = await startTestApp({ env: tronNetworkEnv(chain, tokens), workers: true, clock });
  m = await tronMerchant(t);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

/** Pays a T-address from the node's account #0: the chain itself only knows the 20-byte form. */
const pay = (to: string, amount: string, token: Address = tokens.usdt) =>
  chain.transfer(token, fromTron(to), USD(amount));
const synced = () => caughtUp(t, chain, 15_000, TRON_LOCAL);
const txid = (hash: string) => hash.slice(2);
const statusBecomes = (id: string, status: string) =>
  eventually(async () => {
    const invoice = await getInvoice(t, m, id);
    return invoice.status === status && invoice;
  });

describe('a USDT payment on TRON', () => {
  test('is seen at inclusion, and paid once 19 blocks hold it', async () => {
    const inv = await newInvoice(t, m, '10.50');
    expect(inv).toMatchObject({ network: 'tron-nile', currency: 'USDT' });
    expect(inv.pay_address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const tx = await pay(inv.pay_address, '10.50');
    await synced();
    // The transaction id as Tronscan writes it: 64 hex digits, no 0x.
    expect(await getInvoice(t, m, inv.id)).toMatchObject({
      status: 'pending',
      tx_hash: txid(tx),
      amount_paid: '0.00',
    });

    await chain.mine(DEPTH - 2); // 18 blocks hold it: not yet solidified
    await synced();
    expect((await getInvoice(t, m, inv.id)).status).toBe('pending');

    await chain.mine(1);
    const paid = await statusBecomes(inv.id, 'paid');
    expect(paid).toMatchObject({ tx_hash: txid(tx), amount_paid: '10.50', paid_late: false });
  });

  test('two partial payments add up to paid', async () => {
    const inv = await newInvoice(t, m, '10.50');
    await pay(inv.pay_address, '4.00');
    await chain.mine(DEPTH);
    await synced();
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', amount_paid: '4.00' });
    const second = await pay(inv.pay_address, '6.50');
    await chain.mine(DEPTH - 1);
    expect(await statusBecomes(inv.id, 'paid')).toMatchObject({
      amount_paid: '10.50',
      tx_hash: txid(second),
    });
  });

  test('USDC, an unknown token, or USDT to another address pays nothing', async () => {
    const inv = await newInvoice(t, m, '10.00');
    await pay(inv.pay_address, '10.00', tokens.usdc); // no USDC on TRON
    await pay(inv.pay_address, '10.00', tokens.other);
    await chain.transfer(tokens.usdt, chain.accounts[5] as Address, USD('10.00'));
    await chain.mine(DEPTH);
    await synced();
    expect(await getInvoice(t, m, inv.id)).toMatchObject({
      status: 'pending',
      tx_hash: null,
      amount_paid: '0.00',
    });
  });

  test('after expiry, within 24 h: paid late', async () => {
    const inv = await newInvoice(t, m, '5.00');
    clock.advance(3_600_000 + 1000);
    await statusBecomes(inv.id, 'expired');
    await pay(inv.pay_address, '5.00');
    await chain.mine(DEPTH - 1);
    expect(await statusBecomes(inv.id, 'paid')).toMatchObject({ paid_late: true, amount_paid: '5.00' });
  });

  test('removed by a reorganisation before it is solidified: reversed, and the invoice waits again', async () => {
    const inv = await newInvoice(t, m, '10.00');
    const before = await chain.snapshot();
    const tx = await pay(inv.pay_address, '10.00');
    await chain.mine(3);
    await synced();
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', tx_hash: txid(tx) });

    await chain.revert(before);
    await chain.mine(6); // a longer fork without the transfer
    await eventually(async () => (await getInvoice(t, m, inv.id)).tx_hash === null);
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', amount_paid: '0.00' });
    const payments = await t.database.db
      .selectFrom('payments')
      .select(['tx_hash', 'status'])
      .where('invoice_id', '=', inv.id)
      .execute();
    expect(payments).toEqual([{ tx_hash: txid(tx), status: 'reversed' }]);
  });
});

test('the T-address of a deposit is the same account the chain credits', async () => {
  const inv = await newInvoice(t, m, '1.00');
  const hex = fromTron(inv.pay_address);
  expect(asTron(hex)).toBe(inv.pay_address);
  await pay(inv.pay_address, '1.00');
  const balance = await chain.publicClient.readContract({
    address: tokens.usdt,
    abi: [
      {
        type: 'function',
        name: 'balanceOf',
        stateMutability: 'view',
        inputs: [{ type: 'address' }],
        outputs: [{ type: 'uint256' }],
      },
    ],
    functionName: 'balanceOf',
    args: [hex],
  });
  expect(balance).toBe(USD('1.00'));
});
