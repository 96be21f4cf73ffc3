import type { Address } from 'viem';
import { afterAll, expect, test } from 'vitest';
import { startTestApp } from '../../test/app.js';
import { startChain, stopAllChains } from '../../test/chain.js';
import {
  chainMerchant,
  deployTokens,
  getInvoice,
  localNetworkEnv,
  newInvoice,
} from '../../test/chain-app.js';
import { eventually } from '../../test/webhooks.js';
import { startWorkers } from '../workers.js';

afterAll(stopAllChains);

test('a network watched for the first time reads back to its oldest open invoice: nothing paid before is missed', async () => {
  const chain = await startChain();
  const tokens = await deployTokens(chain);
  // Invoices are made (an API-only instance, say) and paid before any watcher has run.
  const t = await startTestApp({ env: localNetworkEnv(chain, tokens, { confirmations: 1 }) });
  try {
    const m = await chainMerchant(t);
    const inv = await newInvoice(t, m, '3.00');
    const paidWith = await chain.transfer(tokens.usdt, inv.pay_address as Address, 3_000_000n);
    await chain.mine(20);
    // Nothing has seen the payment yet: what follows is the first watcher's doing.
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', amount_paid: '0.00' });

    const workers = await startWorkers({ database: t.database, config: t.app.config, log: t.app.log });
    try {
      const paid = await eventually(async () => {
        const now = await getInvoice(t, m, inv.id);
        return now.status !== 'pending' && now;
      }, 30_000);
      // Paid on time by the transfer made 20 blocks before the watcher's first round, in full.
      expect(paid).toMatchObject({
        status: 'paid',
        amount_paid: '3.00',
        tx_hash: paidWith,
        paid_late: false,
      });
    } finally {
      await workers.stop();
    }
  } finally {
    await t.close();
  }
}, 60_000);
