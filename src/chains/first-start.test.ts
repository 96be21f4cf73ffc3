import type { Address } from 'viem';
import { afterAll, test } from 'vitest';
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
    await chain.transfer(tokens.usdt, inv.pay_address as Address, 3_000_000n);
    await chain.mine(20);

    const workers = await startWorkers({ database: t.database, config: t.app.config, log: t.app.log });
    try {
      await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'paid');
    } finally {
      await workers.stop();
    }
  } finally {
    await t.close();
  }
}, 60_000);
