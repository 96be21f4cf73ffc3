import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import { type ChainTokens, deployTokens } from '../../test/chain-app.js';
import { merchantWithOwner } from '../../test/dashboard.js';
import { installFactory } from '../../test/forwarders.js';
import { eventually } from '../../test/webhooks.js';
import { FACTORY_ADDRESS, forwarderAddress } from './address.js';
import { invoiceSalt } from './salt.js';

/**
 * Contract §21, "Forwarders only where the factory is": two real Hardhat nodes, `with-factory` (the
 * factory installed through the deterministic-deployment proxy) and `no-factory` (nothing there).
 * Each instance asks eth_getCode at the factory's address at start.
 */
const WITH = 'with-factory';
const WITHOUT = 'no-factory';
const PAYOUT = getAddress('0x52908400098527886e0f7030069857d2e4169ee7');
let chains: LocalChain[];
let t: TestApp;

function entry(name: string, chain: LocalChain, tokens: ChainTokens) {
  return {
    name,
    label: name === WITH ? 'With factory' : 'No factory',
    chainId: chain.chainId,
    testnet: true,
    confirmations: 1,
    pollIntervalMs: 1000,
    maxBlockRange: 100,
    tokens: { USDT: { address: tokens.usdt, decimals: 6 } },
  };
}

beforeAll(async () => {
  chains = await Promise.all([startChain({ chainId: 31337 }), startChain({ chainId: 31338 })]);
  const [a, b] = chains as [LocalChain, LocalChain];
  const [tokensA, tokensB] = await Promise.all([deployTokens(a), deployTokens(b)]);
  await installFactory(a);
  t = await startTestApp({
    env: {
      PAYDESK_NETWORKS: JSON.stringify([entry(WITH, a, tokensA), entry(WITHOUT, b, tokensB)]),
      PAYDESK_RPC_WITH_FACTORY: a.rpcUrl,
      PAYDESK_RPC_NO_FACTORY: b.rpcUrl,
    },
  });
  // Each instance asks at start, and serves after 10 s even if a node is slow to answer: under load,
  // wait for the answers (a state, not a time) before the tests that depend on them.
  await eventually(async () => {
    const networks = (await t.app.inject({ url: '/v1/health' })).json().data.networks;
    return networks.filter((n: { forwarders: string | null }) => n.forwarders === 'unchecked').length === 0;
  }, 30_000);
}, 90_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const collecting = (networks: string[], xpub: boolean) => ({
  currency: 'USDT',
  payment_methods: networks.map((network) => ({ network, currency: 'USDT' })),
  payout_address: PAYOUT,
  ...(xpub ? { evm_xpub: TEST_XPUB } : {}),
});

async function invoiceOf(project: Record<string, unknown>) {
  const m = await createMerchant(t.app, project);
  const res = await createInvoice(t.app, m, { amount: '10.00' });
  return { m, res, data: res.json().data };
}

describe('a project collecting through forwarders', () => {
  test('gets a forwarder on a network where the factory is', async () => {
    const { m, res, data } = await invoiceOf(collecting([WITH], false));
    expect(res.statusCode, res.body).toBe(201);
    const forwarder = forwarderAddress(FACTORY_ADDRESS, PAYOUT, invoiceSalt(m.projectId, data.id));
    expect(data.pay_address).toBe(forwarder);
  });

  test('with an evm_xpub, gets an xpub address for an invoice on a network without the factory', async () => {
    const { m, res, data } = await invoiceOf(collecting([WITH, WITHOUT], true));
    expect(res.statusCode, res.body).toBe(201);
    expect(data.payment_methods.map((p: { network: string }) => p.network)).toEqual([WITH, WITHOUT]);
    const forwarder = forwarderAddress(FACTORY_ADDRESS, PAYOUT, invoiceSalt(m.projectId, data.id));
    const addresses = new Set(data.payment_methods.map((p: { pay_address: string }) => p.pay_address));
    expect([...addresses]).toHaveLength(1); // one EVM address serves every EVM network of an invoice
    expect(addresses.has(forwarder)).toBe(false);
    const row = await t.database.db
      .selectFrom('invoices')
      .select(['evm_address_index', 'payout_address'])
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(row.payout_address).toBeNull(); // no forwarder to collect from
    expect(row.evm_address_index).toEqual(expect.any(String)); // an xpub child
  });

  test('without an evm_xpub, leaves the network without the factory out', async () => {
    const { res, data } = await invoiceOf(collecting([WITHOUT, WITH], false));
    expect(res.statusCode, res.body).toBe(201);
    expect(data.payment_methods.map((p: { network: string }) => p.network)).toEqual([WITH]);
  });

  test('without an evm_xpub and only such networks, cannot create invoices: 503 naming the network', async () => {
    const { res } = await invoiceOf(collecting([WITHOUT], false));
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expect(res.json().message).toContain(
      `${WITHOUT} (the forwarder factory is not deployed on this network)`,
    );
  });

  test('/v1/health and Settings say where forwarders are offered and why not', async () => {
    const health = (await t.app.inject({ url: '/v1/health' })).json().data.networks;
    expect(health).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ network: WITH, status: 'ok', forwarders: 'available' }),
        expect.objectContaining({ network: WITHOUT, status: 'ok', forwarders: 'no_factory' }),
      ]),
    );
    const { owner } = await merchantWithOwner(t.app, 'fwd@shop.example', collecting([WITH, WITHOUT], false));
    const page = (await owner.get('/dashboard/settings')).body;
    const row = (network: string) =>
      page.match(new RegExp(`<li>(?:(?!</li>)[^])*value="${network}:USDT"[^]*?</li>`))?.[0];
    expect(row(WITHOUT)).toContain(
      'not offered to payers: the forwarder factory is not deployed on this network, and there is no EVM xpub to use instead',
    );
    expect(row(WITH)).not.toContain('forwarder');
  });
});
