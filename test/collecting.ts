import { observeOne } from '../src/invoices/observe.js';
import { money } from '../src/money/money.js';
import { createInvoice, type Merchant, type TestApp } from './app.js';
import { watchedRpc } from './watched-node.js';

/**
 * A project collecting on an EVM network (contract §16), for the tests of
 * "Collect now" and the Collections page: they take deposits and answer; sending them is the
 * collector's, a worker none of these runs (src/collections/collect.test.ts, on a real chain).
 */
export const COLLECTING_NETWORK = 'evmtest';
export const PAYOUT = '0x52908400098527886E0F7030069857D2E4169EE7';
export const COLLECTOR_KEY = `0x${'11'.repeat(32)}`;

/**
 * The network, its RPC URL (the run's shared node, with the forwarder factory: a network whose node
 * never answered, or without the factory, offers no forwarder, contract §21) and, unless
 * `collectorKey` is false, a collector key.
 */
export function collectingEnv(options: { collectorKey?: boolean } = {}): Record<string, string> {
  const network = {
    name: COLLECTING_NETWORK,
    label: 'EVM Test',
    chainId: 31337,
    testnet: true,
    confirmations: 1,
    pollIntervalMs: 1000,
    maxBlockRange: 100,
    tokens: { USDT: { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', decimals: 6 } },
  };
  return {
    PAYDESK_NETWORKS: JSON.stringify([network]),
    ...watchedRpc(COLLECTING_NETWORK),
    ...(options.collectorKey === false ? {} : { PAYDESK_COLLECTOR_KEY: COLLECTOR_KEY }),
  };
}

/** A confirmed USDT payment to a new invoice's forwarder, reported as the chain watcher reports one. */
export async function confirmedDeposit(t: TestApp, m: Merchant, amount: string) {
  const inv = (await createInvoice(t.app, m, { amount })).json().data;
  await observeOne(
    t.database.db,
    inv.id,
    {
      kind: 'payment',
      txHash: `0x${inv.id.slice(4).padEnd(64, '0').slice(0, 64)}`,
      network: COLLECTING_NETWORK,
      currency: 'USDT',
      amount: money(amount),
      confirmed: true,
    },
    { now: new Date(), publicBaseUrl: 'http://paydesk.test' },
  );
  return inv;
}
