import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  type ChainTokens,
  caughtUp,
  chainMerchant,
  deployTokens,
  getInvoice,
  localNetworkEnv,
  newInvoice,
} from '../../test/chain-app.js';
import { eventually } from '../../test/webhooks.js';

// Reorganisations made with evm_snapshot / evm_revert on a real Hardhat node: blocks the watcher has
// read disappear, and other blocks take their heights.
let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  t = await startTestApp({ env: localNetworkEnv(chain, tokens, { confirmations: 4 }), workers: true });
  m = await chainMerchant(t);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

/** The invoice's payments as the invoices module keeps them, with the block each was found in. */
async function paymentsOf(invoiceId: string) {
  return t.database.db
    .selectFrom('payments')
    .select(['tx_hash', 'status', 'block_hash'])
    .where('invoice_id', '=', invoiceId)
    .execute();
}

describe('a reorganisation', () => {
  test('that removes a seen payment reverses it: the invoice is waiting again', async () => {
    const inv = await newInvoice(t, m, '10.00');
    const before = await chain.snapshot();
    const tx = await chain.transfer(tokens.usdt, inv.pay_address as Address, 10_000_000n);
    await chain.mine(1);
    await caughtUp(t, chain);
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', tx_hash: tx });

    await chain.revert(before);
    await chain.mine(3); // a longer fork without the transfer
    await eventually(async () => (await getInvoice(t, m, inv.id)).tx_hash === null);
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', amount_paid: '0.00' });
    expect(await paymentsOf(inv.id)).toMatchObject([{ tx_hash: tx, status: 'reversed' }]);

    // Mined for good afterwards, the invoice is paid as usual.
    await chain.transfer(tokens.usdt, inv.pay_address as Address, 10_000_000n);
    await chain.mine(3);
    await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'paid');
  });

  test('that mines the same transaction again in another block counts it once', async () => {
    const inv = await newInvoice(t, m, '10.00');
    await chain.setAutomine(false);
    try {
      const tx = await chain.transfer(tokens.usdt, inv.pay_address as Address, 10_000_000n);
      const before = await chain.snapshot(); // the transaction waits in the mempool
      await chain.mine(1);
      await caughtUp(t, chain);
      const first = await paymentsOf(inv.id);
      expect(first).toMatchObject([{ tx_hash: tx, status: 'pending' }]);

      await chain.revert(before);
      // A later timestamp makes the new block differ from the dropped one (same height, other hash).
      await chain.testClient.increaseTime({ seconds: 15 });
      await chain.mine(2); // the other fork: the transaction lands again
      await eventually(async () => {
        const rows = await paymentsOf(inv.id);
        return rows[0]?.status === 'pending' && rows[0].block_hash !== first[0]?.block_hash;
      });
      await chain.mine(4);
      const paid = await eventually(async () => {
        const i = await getInvoice(t, m, inv.id);
        return i.status === 'paid' && i;
      });
      expect(paid).toMatchObject({ amount_paid: '10.00', tx_hash: tx });
      const payments = await t.database.db
        .selectFrom('payments')
        .selectAll()
        .where('invoice_id', '=', inv.id)
        .execute();
      expect(payments).toHaveLength(1);
    } finally {
      await chain.setAutomine(true);
    }
  });
});
