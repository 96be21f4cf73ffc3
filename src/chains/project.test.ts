import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import {
  accountXpubFromMnemonic,
  MERCHANT_MNEMONIC,
  privateKeyAt,
  seedFromMnemonic,
  TEST_XPUB,
} from '../../test/chain/wallet.js';
import { watchedBuiltins } from '../../test/watched-node.js';

// Chain projects through the admin API, and the deposit addresses of their invoices. No node is
// needed: a network is known from the registry whether or not it has an RPC URL.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
});
afterAll(async () => {
  await t?.close();
});

const adminCall = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload });

async function accountId() {
  return (await adminCall('POST', '/v1/admin/accounts', { name: 'Shop' })).json().data.id as string;
}

async function violations(res: Promise<{ statusCode: number; json(): any }>) {
  const r = await res;
  expect(r.statusCode).toBe(422);
  return r.json().error.details.errors.map((e: { field: string; rule: string }) => `${e.field}: ${e.rule}`);
}

describe('a project on a chain', () => {
  test('is created with its network, currency and xpub, and shows them', async () => {
    const res = await adminCall('POST', '/v1/admin/projects', {
      account_id: await accountId(),
      name: 'Polygon shop',
      network: 'polygon',
      currency: 'USDC',
      xpub: TEST_XPUB,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ network: 'polygon', currency: 'USDC', xpub: TEST_XPUB });
  });

  test('needs an xpub; sandbox takes none; unknown networks and absent tokens are refused', async () => {
    const base = { account_id: await accountId(), name: 'S' };
    const create = (body: object) => adminCall('POST', '/v1/admin/projects', { ...base, ...body });
    expect(await violations(create({ network: 'polygon' }))).toEqual(['xpub: required']);
    expect(await violations(create({ network: 'sandbox', xpub: TEST_XPUB }))).toEqual(['xpub: not_allowed']);
    expect(await violations(create({ network: 'dogechain', xpub: TEST_XPUB }))).toEqual(['network: enum']);
    // Tether issues no USDT on Base.
    expect(await violations(create({ network: 'base', currency: 'USDT', xpub: TEST_XPUB }))).toEqual([
      'currency: unsupported',
    ]);
  });

  test('refuses a private key without repeating it, and a key that is not an xpub', async () => {
    const base = { account_id: await accountId(), name: 'S', network: 'ethereum' };
    const xprv =
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';
    const res = await adminCall('POST', '/v1/admin/projects', { ...base, xpub: xprv });
    expect(await violations(Promise.resolve(res))).toEqual(['xpub: format']);
    expect(res.body).toContain('private key');
    expect(res.body).not.toContain(xprv.slice(4, 20));
    expect(t.rawLogs()).not.toContain(xprv.slice(4, 20));
    expect(
      await violations(adminCall('POST', '/v1/admin/projects', { ...base, xpub: 'xpub-nonsense' })),
    ).toEqual(['xpub: format']);
  });

  test('PATCH checks the settings as they will be: a sandbox project moves to a chain only with an xpub', async () => {
    const m = await createMerchant(t.app);
    const url = `/v1/admin/projects/${m.projectId}`;
    expect(await violations(adminCall('PATCH', url, { network: 'ethereum' }))).toEqual(['xpub: required']);
    const moved = await adminCall('PATCH', url, { network: 'ethereum', xpub: TEST_XPUB });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ network: 'ethereum', xpub: TEST_XPUB });
    expect(await violations(adminCall('PATCH', url, { xpub: null }))).toEqual(['xpub: required']);
    const back = await adminCall('PATCH', url, { network: 'sandbox', xpub: null });
    expect(back.json().data).toMatchObject({ network: 'sandbox', xpub: null });
  });
});

describe('deposit addresses', () => {
  test("are the wallet's own addresses m/44'/60'/0'/0/i, in order, one per invoice", async () => {
    const m = await createMerchant(t.app, { network: 'ethereum', xpub: TEST_XPUB });
    const seed = seedFromMnemonic(MERCHANT_MNEMONIC);
    for (let i = 0; i < 3; i++) {
      const inv = (await createInvoice(t.app, m)).json().data;
      expect(inv.network).toBe('ethereum');
      expect(inv.pay_address).toBe(privateKeyToAccount(privateKeyAt(seed, i)).address);
    }
  });

  test('are never handed out twice, even to 40 concurrent creates and to two projects sharing an xpub', async () => {
    const xpub = accountXpubFromMnemonic(MERCHANT_MNEMONIC, 7);
    const a = await createMerchant(t.app, { network: 'polygon', xpub });
    const b = await createMerchant(t.app, { network: 'polygon', xpub });
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => createInvoice(t.app, i % 2 ? a : b, { amount: '1.00' })),
    );
    for (const res of created) expect(res.statusCode, res.body).toBe(201);
    const addresses = created.map((r) => r.json().data.pay_address);
    expect(new Set(addresses).size).toBe(40);
    const indexes = await t.database.db
      .selectFrom('invoices')
      .select('evm_address_index as address_index')
      .where('pay_address', 'in', addresses)
      .execute();
    expect(indexes.map((r) => Number(r.address_index)).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i),
    );
  });

  test('an idempotent replay returns the first address and does not reuse its index', async () => {
    const m = await createMerchant(t.app, {
      network: 'arbitrum',
      xpub: accountXpubFromMnemonic(MERCHANT_MNEMONIC, 8),
    });
    const headers = { 'idempotency-key': 'same-order-1' };
    const first = (await createInvoice(t.app, m, { amount: '3.00' }, headers)).json().data;
    const replay = (await createInvoice(t.app, m, { amount: '3.00' }, headers)).json().data;
    expect(replay.pay_address).toBe(first.pay_address);
    const next = (await createInvoice(t.app, m, { amount: '3.00' })).json().data;
    expect(next.pay_address).not.toBe(first.pay_address);
  });
});
