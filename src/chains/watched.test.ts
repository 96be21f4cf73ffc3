import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import { type ChainTokens, deployTokens, LOCAL, localNetworkEnv } from '../../test/chain-app.js';
import { merchantWithOwner } from '../../test/dashboard.js';
import { freePort } from '../../test/process.js';
import { eventually } from '../../test/webhooks.js';

/**
 * Contract §21, "Only watched networks are offered": one instance with a network whose node answers
 * (a real Hardhat node), one whose RPC URL leads nowhere (a port nothing listens on) and the built-in
 * `base-sepolia` with no RPC URL at all, each offering USDC. All testnets, so a project may hold them together.
 */
const DEAD = 'deadchain';
let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  const local = localNetworkEnv(chain, tokens);
  const [entry] = JSON.parse(local.PAYDESK_NETWORKS as string);
  const dead = { ...entry, name: DEAD, label: 'Dead chain', chainId: 31338 };
  t = await startTestApp({
    env: {
      ...local,
      PAYDESK_NETWORKS: JSON.stringify([entry, dead]),
      PAYDESK_RPC_DEADCHAIN: `http://127.0.0.1:${await freePort()}`,
    },
  });
  // The instance serves after 10 s even if a node is slow to answer its first question; under load,
  // wait for the live node's answer (a state, not a time).
  await eventually(async () => {
    const networks = (await t.app.inject({ url: '/v1/health' })).json().data.networks;
    return networks.some(
      (n: { network: string; status: string }) => n.network === LOCAL && n.status === 'ok',
    );
  }, 30_000);
}, 90_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const project = (...networks: string[]) => ({
  currency: 'USDC',
  payment_methods: networks.map((network) => ({ network, currency: 'USDC' })),
  evm_xpub: TEST_XPUB,
});

async function create(m: Merchant) {
  return createInvoice(t.app, m, { amount: '10.00' });
}

describe('a method whose network is not watched', () => {
  test('is left out of a new invoice, which offers the watched ones', async () => {
    const m = await createMerchant(t.app, project(DEAD, LOCAL, 'base-sepolia', 'sandbox'));
    const res = await create(m);
    expect(res.statusCode, res.body).toBe(201);
    const offered = res.json().data.payment_methods.map((p: { network: string }) => p.network);
    expect(offered).toEqual([LOCAL, 'sandbox']);
    const page = await t.app.inject({ url: `/pay/${res.json().data.id}` });
    expect(page.body).not.toMatch(/Dead chain|Base Sepolia/);
  });

  test('when every method is unwatched, the create answers 503 with Retry-After naming the networks', async () => {
    const m = await createMerchant(t.app, project(DEAD, 'base-sepolia'));
    const res = await create(m);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'INTERNAL_SERVER_ERROR' } });
    const { message } = res.json();
    expect(message).toContain(`${DEAD} (its node has not answered since Paydesk started)`);
    expect(message).toContain('base-sepolia (no RPC URL is configured (PAYDESK_RPC_BASE_SEPOLIA))');
    expect(message).not.toContain('127.0.0.1'); // the RPC URL may hold a provider key
    const count = await t.database.db
      .selectFrom('invoices')
      .select('id')
      .where('project_id', '=', m.projectId)
      .execute();
    expect(count).toEqual([]);
  });

  test('asked for by name (`network`), answers 503 too; the sandbox is always watched', async () => {
    const m = await createMerchant(t.app, project(DEAD, 'sandbox'));
    const named = await createInvoice(t.app, m, { amount: '10.00', network: DEAD });
    expect(named.statusCode, named.body).toBe(503);
    const sandbox = await createInvoice(t.app, m, { amount: '10.00', network: 'sandbox' });
    expect(sandbox.statusCode, sandbox.body).toBe(201);
  });

  test('is listed by /v1/health as unwatched, with why', async () => {
    const res = await t.app.inject({ url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    const networks = res.json().data.networks;
    expect(networks).toEqual(
      expect.arrayContaining([
        { network: 'sandbox', status: 'ok', reason: null, since: null, forwarders: null },
        expect.objectContaining({ network: LOCAL, status: 'ok', reason: null, since: null }),
        {
          network: DEAD,
          status: 'unwatched',
          reason: 'its node has not answered since Paydesk started',
          since: null,
          forwarders: null,
        },
        {
          network: 'base-sepolia',
          status: 'unwatched',
          reason: 'no RPC URL is configured (PAYDESK_RPC_BASE_SEPOLIA)',
          since: null,
          forwarders: null,
        },
      ]),
    );
    expect(res.body).not.toContain('127.0.0.1');
  });

  test('is explained in Settings beside its checkbox', async () => {
    const { owner } = await merchantWithOwner(t.app, 'watch@shop.example', project(DEAD, LOCAL));
    const page = await owner.get('/dashboard/settings');
    const row = (network: string) =>
      page.body.match(new RegExp(`<li>(?:(?!</li>)[^])*value="${network}:USDC"[^]*?</li>`))?.[0];
    expect(row(DEAD)).toContain('not offered to payers: its node has not answered since Paydesk started');
    expect(row('base-sepolia')).toContain(
      'not offered to payers: no RPC URL is configured (PAYDESK_RPC_BASE_SEPOLIA)',
    );
    expect(row(LOCAL)).not.toContain('not offered');
  });
});
