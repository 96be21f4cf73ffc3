import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Merchant, startTestApp, type TestApp } from '../../test/app.js';
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
import { type LaggingRpc, startLaggingRpc } from '../../test/lagging-rpc.js';
import { eventually } from '../../test/webhooks.js';

/**
 * Contract §21, "A node that lags is not a reorganisation": the watcher reads a real Hardhat node
 * through a JSON-RPC proxy that can fall behind it by N blocks. Confirmations: 4.
 */

let chain: LocalChain;
let tokens: ChainTokens;
let rpc: LaggingRpc;
let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  rpc = await startLaggingRpc(chain.rpcUrl);
  const env = localNetworkEnv(chain, tokens, { confirmations: 4, rpcUrl: rpc.url });
  t = await startTestApp({ env, workers: true });
  m = await chainMerchant(t);
}, 60_000);

// A test that fails while the node lags leaves the next ones a node that answers.
afterEach(() => rpc.lag(0));

afterAll(async () => {
  await t?.close();
  await rpc?.close();
  await stopAllChains();
});

const paymentsOf = (invoiceId: string) =>
  t.database.db
    .selectFrom('payments')
    .select(['tx_hash', 'status'])
    .where('invoice_id', '=', invoiceId)
    .execute();

const eventsOf = async (invoiceId: string) =>
  (
    await t.database.db
      .selectFrom('events')
      .select('type')
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at')
      .execute()
  ).map((e) => e.type);

async function networkHealth() {
  const res = await t.app.inject({ url: '/v1/health' });
  expect(res.statusCode, res.body).toBe(200);
  const networks = res.json().data.networks as Array<{ network: string; status: string }> | undefined;
  return networks?.find((n) => n.network === LOCAL);
}

/** A payment seen in the newest block the watcher has read (its cursor is on that block). */
async function detectedAtTheHead() {
  const inv = await newInvoice(t, m, '10.00');
  const tx = await chain.transfer(tokens.usdt, inv.pay_address as Address, 10_000_000n);
  await caughtUp(t, chain);
  expect(await paymentsOf(inv.id)).toEqual([{ tx_hash: tx, status: 'pending' }]);
  return { inv, tx };
}

/**
 * Waits until the watcher has decided about the lag: either health says `lagging` (the fix) or the
 * payment was taken back (the bug), whichever comes first, so the test fails on the bug's own outcome.
 */
async function decidedAboutTheLag(invoiceId: string) {
  await eventually(async () => {
    const reversed = (await paymentsOf(invoiceId)).some((p) => p.status === 'reversed');
    return reversed || (await networkHealth())?.status === 'lagging';
  });
}

describe('a node that lags', () => {
  for (const [name, options] of [
    ['behind its own head (eth_blockNumber below the block Paydesk read)', { headToo: true }],
    ['that does not know a block below the head it reports (a load-balanced pool)', { headToo: false }],
  ] as const) {
    test(`${name}: is waited for, nothing is reversed or sent twice, health says lagging then ok`, async () => {
      const { inv, tx } = await detectedAtTheHead();

      rpc.lag(2, options);
      await decidedAboutTheLag(inv.id);
      await chain.mine(1); // the chain moves on while the node still lags by 2
      await decidedAboutTheLag(inv.id);
      expect(await paymentsOf(inv.id)).toEqual([{ tx_hash: tx, status: 'pending' }]);
      expect(await networkHealth()).toMatchObject({ status: 'lagging', reason: expect.any(String) });

      rpc.lag(0);
      await chain.mine(4);
      await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'paid');
      await caughtUp(t, chain);
      await eventually(async () => (await networkHealth())?.status === 'ok');
      expect(await paymentsOf(inv.id)).toEqual([{ tx_hash: tx, status: 'confirmed' }]);
      expect(await eventsOf(inv.id)).toEqual(['invoice.created', 'invoice.payment_detected', 'invoice.paid']);
    });
  }

  test('does not hide a real reorganisation behind it: a payment whose block is gone is reversed', async () => {
    const inv = await newInvoice(t, m, '10.00');
    const before = await chain.snapshot();
    const tx = await chain.transfer(tokens.usdt, inv.pay_address as Address, 10_000_000n);
    await chain.mine(1);
    await caughtUp(t, chain);
    expect(await paymentsOf(inv.id)).toEqual([{ tx_hash: tx, status: 'pending' }]);

    await chain.revert(before);
    // A later timestamp makes the new blocks differ from the dropped ones (same heights, other hashes).
    await chain.testClient.increaseTime({ seconds: 15 });
    await chain.mine(3); // a longer fork without the transfer
    await eventually(async () => (await paymentsOf(inv.id))[0]?.status === 'reversed');
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', amount_paid: '0.00' });
    expect(await eventsOf(inv.id)).toEqual(['invoice.created', 'invoice.payment_detected']);
    expect((await networkHealth())?.status).toBe('ok');
  });
});
