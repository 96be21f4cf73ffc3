import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, admin, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { payableIn, paymentSettingsErrors, tokenDecimals } from '../networks/methods.js';
import { CURRENCIES, INVOICE_CURRENCIES } from '../networks/network.js';
import { loadNetworks } from '../networks/registry.js';

// A project's payment settings through the admin API (contract §15): every rule by name, the shapes of
// before still answered under their old fields, and the rules themselves checked against a reference.

const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` };
let t: TestApp;
let accountId: string;

beforeAll(async () => {
  t = await startTestApp();
  accountId = (await admin(t.app, 'POST', '/v1/admin/accounts', { name: 'Methods' })).id;
});
afterAll(() => t?.close());

async function violations(body: object): Promise<string[]> {
  const res = await createWithAdmin(body);
  expect(res.statusCode, res.body).toBe(422);
  return res.json().error.details.errors.map((e: { field: string; rule: string }) => `${e.field}: ${e.rule}`);
}

async function createWithAdmin(body: object) {
  const project = { account_id: accountId, name: 'Shop', ...body };
  return t.app.inject({ method: 'POST', url: '/v1/admin/projects', headers: ADMIN, payload: project });
}

const polygonUsdt = { network: 'polygon', currency: 'USDT' };
const baseUsdc = { network: 'base', currency: 'USDC' };
const tronUsdt = { network: 'tron', currency: 'USDT' };

describe('a project of several methods', () => {
  test('is created with its methods, keys and tolerance, and reads them back', async () => {
    const res = await createWithAdmin({
      currency: 'USD',
      payment_methods: [tronUsdt, polygonUsdt, baseUsdc],
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
      underpayment_tolerance_percent: 1.25,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      currency: 'USD',
      network: 'tron',
      payment_methods: [tronUsdt, polygonUsdt, baseUsdc],
      evm_xpub: TEST_XPUB,
      tron_xpub: TRON_TEST_XPUB,
      xpub: null,
      underpayment_tolerance_percent: 1.25,
    });
  });

  test.each([
    ['no method', { payment_methods: [] }, ['payment_methods: min_items']],
    [
      'the same method twice',
      { payment_methods: [polygonUsdt, polygonUsdt], evm_xpub: TEST_XPUB },
      ['payment_methods.1: duplicate'],
    ],
    [
      'USDC on TRON',
      {
        currency: 'USD',
        payment_methods: [{ network: 'tron', currency: 'USDC' }],
        tron_xpub: TRON_TEST_XPUB,
      },
      ['payment_methods.0.currency: unsupported'],
    ],
    [
      'a USDC method on a USDT project',
      { currency: 'USDT', payment_methods: [baseUsdc], evm_xpub: TEST_XPUB },
      ['payment_methods.0.currency: not_payable'],
    ],
    [
      'an unknown network',
      { payment_methods: [{ network: 'dogechain', currency: 'USDT' }] },
      ['payment_methods.0.network: enum'],
    ],
    ['an EVM method without its key', { payment_methods: [polygonUsdt] }, ['evm_xpub: required']],
    [
      'a TRON key and no TRON method',
      { payment_methods: [polygonUsdt], evm_xpub: TEST_XPUB, tron_xpub: TRON_TEST_XPUB },
      ['tron_xpub: not_allowed'],
    ],
    [
      'one xpub for two families',
      { currency: 'USD', payment_methods: [polygonUsdt, tronUsdt], xpub: TEST_XPUB },
      ['xpub: ambiguous', 'evm_xpub: required', 'tron_xpub: required'],
    ],
    [
      'the same key for both families',
      { payment_methods: [polygonUsdt, tronUsdt], evm_xpub: TEST_XPUB, tron_xpub: TEST_XPUB },
      ['tron_xpub: same_key'],
    ],
    [
      'a network that is not the first method’s',
      { network: 'base', payment_methods: [polygonUsdt], evm_xpub: TEST_XPUB },
      ['network: conflict'],
    ],
    [
      'a tolerance above 50',
      { underpayment_tolerance_percent: 50.01 },
      ['underpayment_tolerance_percent: maximum'],
    ],
    [
      'a negative tolerance',
      { underpayment_tolerance_percent: -1 },
      ['underpayment_tolerance_percent: minimum'],
    ],
    [
      'a tolerance of three decimals',
      { underpayment_tolerance_percent: 1.005 },
      ['underpayment_tolerance_percent: multiple_of'],
    ],
    ['a currency of no kind', { currency: 'XYZ' }, ['currency: enum']],
    ['a currency in lower case', { currency: 'eur' }, ['currency: pattern']],
  ])('refuses %s', async (_, body, rules) => {
    expect((await violations(body)).sort()).toEqual([...rules].sort());
  });

  test('requests in the shape of before hear of their problems under the old fields', async () => {
    expect(await violations({ network: 'polygon' })).toEqual(['xpub: required']);
    expect(await violations({ network: 'base', currency: 'USDT', xpub: TEST_XPUB })).toEqual([
      'currency: unsupported',
    ]);
    expect(await violations({ network: 'sandbox', xpub: TEST_XPUB })).toEqual(['xpub: not_allowed']);
  });

  test('a USD project given only a network accepts every token the network offers', async () => {
    const res = await createWithAdmin({ currency: 'USD', network: 'polygon', xpub: TEST_XPUB });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      payment_methods: [polygonUsdt, { network: 'polygon', currency: 'USDC' }],
      evm_xpub: TEST_XPUB,
      xpub: TEST_XPUB,
    });
  });

  test('PATCH currency on a project of one network takes that network’s token; of several, keeps the methods', async () => {
    const one = (await createWithAdmin({ network: 'polygon', xpub: TEST_XPUB })).json().data;
    const patched = await admin(t.app, 'PATCH', `/v1/admin/projects/${one.id}`, { currency: 'USDC' });
    expect(patched).toMatchObject({
      currency: 'USDC',
      payment_methods: [{ network: 'polygon', currency: 'USDC' }],
    });

    const several = (
      await createWithAdmin({
        currency: 'USD',
        payment_methods: [polygonUsdt, baseUsdc],
        evm_xpub: TEST_XPUB,
      })
    ).json().data;
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/v1/admin/projects/${several.id}`,
      headers: ADMIN,
      payload: { currency: 'USDT' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details.errors).toEqual([
      // The change sent was the currency: that is the field blamed.
      expect.objectContaining({ field: 'currency', rule: 'not_payable' }),
    ]);
  });

  test('a key kept for a family no method uses any more is not refused on the next change', async () => {
    const p = (
      await createWithAdmin({
        currency: 'USD',
        payment_methods: [polygonUsdt, tronUsdt],
        evm_xpub: TEST_XPUB,
        tron_xpub: TRON_TEST_XPUB,
      })
    ).json().data;
    const evmOnly = await admin(t.app, 'PATCH', `/v1/admin/projects/${p.id}`, {
      payment_methods: [polygonUsdt],
    });
    expect(evmOnly).toMatchObject({ tron_xpub: TRON_TEST_XPUB, payment_methods: [polygonUsdt] });
    const renamed = await admin(t.app, 'PATCH', `/v1/admin/projects/${p.id}`, { name: 'Renamed' });
    expect(renamed.name).toBe('Renamed');
  });
});

// A wallet's address (an ed25519 public key, on the curve), for Solana methods (contract §24).
const SOLANA_WALLET = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(1)));

describe('the rules, against a reference', () => {
  const networks = loadNetworks({});
  const names = ['sandbox', ...networks.all().map((n) => n.name)];
  const method = fc.record({
    network: fc.constantFrom(...names),
    currency: fc.constantFrom(...CURRENCIES),
  });

  test('settings pass exactly when every method is distinct, offered, payable, has its family’s key, and all are live or all test', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...INVOICE_CURRENCIES),
        fc.array(method, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (currency, methods, withEvm, withTron, withSolana) => {
          const familyOf = (n: string) => (n === 'sandbox' ? 'sandbox' : networks.get(n)?.family);
          const families = new Set(methods.map((m) => familyOf(m.network)));
          const keys = new Set(methods.map((m) => `${m.network}:${m.currency}`));
          const expected =
            keys.size === methods.length &&
            methods.every(
              (m) => tokenDecimals(networks, m) !== undefined && payableIn(currency, m.currency),
            ) &&
            withEvm === families.has('evm') &&
            withTron === families.has('tron') &&
            withSolana === families.has('solana') &&
            // Live and test never mix (contract §21): the sandbox and testnets are test.
            new Set(methods.map((m) => m.network === 'sandbox' || networks.get(m.network)?.testnet)).size ===
              1;
          const errors = paymentSettingsErrors(networks, {
            currency,
            priced: new Set(['EUR']),
            methods,
            evmXpub: withEvm ? TEST_XPUB : null,
            tronXpub: withTron ? TRON_TEST_XPUB : null,
            solanaAddress: withSolana ? SOLANA_WALLET : null,
          });
          expect(errors.length === 0).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
