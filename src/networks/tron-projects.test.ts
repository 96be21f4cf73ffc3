import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, createInvoice, createMerchant, startTestApp, type TestApp } from '../../test/app.js';
import {
  accountKey,
  accountXpubFromMnemonic,
  MERCHANT_MNEMONIC,
  seedFromMnemonic,
  TEST_XPUB,
  TRON_COIN,
  TRON_TEST_XPUB,
} from '../../test/chain/wallet.js';
import { watchedBuiltins } from '../../test/watched-node.js';

// TRON projects through the admin API (contract §8, §14): settings, deposit addresses of invoices, and
// the address preview the dashboard's settings page shows. No node is needed.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: watchedBuiltins() });
});
afterAll(() => t?.close());

const call = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload });
const preview = (body: object) => call('POST', '/v1/admin/deposit-addresses/preview', body);
const tronweb = (i: number) => TronWeb.fromMnemonic(MERCHANT_MNEMONIC, `m/44'/195'/0'/0/${i}`).address;

async function violations(res: Promise<{ statusCode: number; json(): any }>) {
  const r = await res;
  expect(r.statusCode).toBe(422);
  return r.json().error.details.errors.map((e: { field: string; rule: string }) => `${e.field}: ${e.rule}`);
}

describe('a project on TRON', () => {
  test("hands each invoice the wallet's next TRON address, T…, in BIP44 order", async () => {
    const m = await createMerchant(t.app, { network: 'tron', currency: 'USDT', xpub: TRON_TEST_XPUB });
    for (let i = 0; i < 3; i++) {
      const inv = (await createInvoice(t.app, m)).json().data;
      expect(inv).toMatchObject({ network: 'tron', currency: 'USDT', pay_address: tronweb(i) });
    }
  });

  test('refuses USDC, saying why, and needs an xpub', async () => {
    const account = (await call('POST', '/v1/admin/accounts', { name: 'Shop' })).json().data.id;
    const create = (body: object) =>
      call('POST', '/v1/admin/projects', { account_id: account, name: 'S', ...body });
    const usdc = await create({ network: 'tron', currency: 'USDC', xpub: TRON_TEST_XPUB });
    expect(await violations(Promise.resolve(usdc))).toEqual(['currency: unsupported']);
    expect(usdc.json().message).toBe(
      'USDC is not available on tron (offered: USDT); Circle ended USDC on TRON in 2024',
    );
    expect(await violations(create({ network: 'tron-nile' }))).toEqual(['xpub: required']);
  });

  test("names TRON's path when the key is not an account key", async () => {
    const account = (await call('POST', '/v1/admin/accounts', { name: 'Shop' })).json().data.id;
    const external = accountKey(seedFromMnemonic(MERCHANT_MNEMONIC), 0, TRON_COIN).deriveChild(0);
    const res = await call('POST', '/v1/admin/projects', {
      account_id: account,
      name: 'S',
      network: 'tron',
      xpub: external.publicExtendedKey,
    });
    expect(res.json().error.details.errors[0].message).toBe(
      "Expected the account-level key (depth 3, m/44'/195'/0'); this key is at depth 4.",
    );
  });

  test('shares the key’s counter with an EVM project on the same key: no index is used twice', async () => {
    const xpub = accountXpubFromMnemonic(MERCHANT_MNEMONIC, 3, TRON_COIN);
    const tron = await createMerchant(t.app, { network: 'tron', xpub });
    const eth = await createMerchant(t.app, { network: 'ethereum', xpub });
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createInvoice(t.app, i % 2 ? tron : eth, { amount: '1.00' })),
    );
    const ids = created.map((r) => r.json().data.id as string);
    const rows = await t.database.db
      .selectFrom('invoices')
      .select(['evm_address_index', 'tron_address_index'])
      .where('id', 'in', ids)
      .execute();
    expect(
      rows.map((r) => Number(r.evm_address_index ?? r.tron_address_index)).sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe('POST /v1/admin/deposit-addresses/preview', () => {
  test('shows the first three addresses of an xpub as the network writes them', async () => {
    const res = await preview({ network: 'tron', xpub: TRON_TEST_XPUB });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      network: 'tron',
      addresses: [0, 1, 2].map((index) => ({ index, address: tronweb(index) })),
    });
    const eth = (await preview({ network: 'ethereum', xpub: TEST_XPUB, count: 1 })).json().data;
    expect(eth.addresses).toEqual([{ index: 0, address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' }]);
  });

  test('an Ethereum key previewed on TRON gives addresses the TRON wallet does not list: the mismatch to catch', async () => {
    const res = (await preview({ network: 'tron', xpub: TEST_XPUB, count: 1 })).json().data;
    expect(res.addresses[0].address).toMatch(/^T/);
    expect(res.addresses[0].address).not.toBe(tronweb(0));
  });

  test('takes no unused index and stores nothing', async () => {
    const xpub = accountXpubFromMnemonic(MERCHANT_MNEMONIC, 9, TRON_COIN);
    await preview({ network: 'tron', xpub, count: 20 });
    const row = await t.database.db
      .selectFrom('xpub_indexes')
      .selectAll()
      .where('xpub', '=', xpub)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  test('refuses what it cannot preview, field by field', async () => {
    expect(await violations(preview({ network: 'dogechain', xpub: TRON_TEST_XPUB }))).toEqual([
      'network: enum',
    ]);
    expect(await violations(preview({ network: 'sandbox', xpub: TRON_TEST_XPUB }))).toEqual([
      'network: not_allowed',
    ]);
    expect(await violations(preview({ network: 'tron', xpub: 'xpub-nonsense' }))).toEqual(['xpub: format']);
    expect(await violations(preview({ network: 'tron', xpub: TRON_TEST_XPUB, count: 21 }))).toEqual([
      'count: maximum',
    ]);
    expect(await violations(preview({ network: 'tron', xpub: TRON_TEST_XPUB, colour: 'red' }))).toEqual([
      'colour: unknown_field',
    ]);
  });

  test('refuses a private key without repeating it', async () => {
    const xprv = accountKey(seedFromMnemonic(MERCHANT_MNEMONIC), 0, TRON_COIN).privateExtendedKey;
    const res = await preview({ network: 'tron', xpub: xprv });
    expect(await violations(Promise.resolve(res))).toEqual(['xpub: format']);
    expect(res.body).toContain('Never give Paydesk a private key');
    expect(res.body).not.toContain(xprv.slice(4, 30));
    expect(t.rawLogs()).not.toContain(xprv.slice(4, 30));
  });
});
