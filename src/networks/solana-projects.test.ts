import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../../test/app.js';
import { associatedTokenAccount } from './solana-address.js';

// Solana projects through the admin API (contract §24): Solana methods need the merchant's wallet,
// one rule for the API and the dashboard (the dashboard's form goes through the same service).
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const WALLET = base58.encode(ed25519.getPublicKey(new Uint8Array(32).fill(7)));
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const call = (method: 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload });

async function account() {
  return (await call('POST', '/v1/admin/accounts', { name: 'Shop' })).json().data.id as string;
}
const rules = (res: { json(): any }) =>
  res.json().error.details.errors.map((e: { field: string; rule: string }) => `${e.field}: ${e.rule}`);

describe('a project on Solana', () => {
  test('keeps the wallet with USDC and USDT on Solana, priced in USD', async () => {
    const res = await call('POST', '/v1/admin/projects', {
      account_id: await account(),
      name: 'S',
      currency: 'USD',
      payment_methods: [
        { network: 'solana', currency: 'USDC' },
        { network: 'solana', currency: 'USDT' },
      ],
      solana_address: WALLET,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ solana_address: WALLET, network: 'solana' });
  });

  test('needs the wallet, refuses a token account (off the curve) and text that is no address', async () => {
    const base = { account_id: await account(), name: 'S', network: 'solana', currency: 'USDC' };
    expect(rules(await call('POST', '/v1/admin/projects', base))).toEqual(['solana_address: required']);
    const ata = await call('POST', '/v1/admin/projects', {
      ...base,
      solana_address: associatedTokenAccount(WALLET, USDC),
    });
    expect(rules(ata)).toEqual(['solana_address: off_curve']);
    expect(ata.json().message).toMatch(/off the curve/);
    const typo = await call('POST', '/v1/admin/projects', {
      ...base,
      solana_address: `${WALLET.slice(0, -1)}0`,
    });
    expect(rules(typo)).toEqual(['solana_address: format']);
    const rows = await t.database.db
      .selectFrom('projects')
      .select('id')
      .where('solana_address', '=', WALLET)
      .execute();
    expect(rows.length).toBeLessThanOrEqual(1);
  });

  test('refuses the wallet for a project without a Solana method, as TRON keys are', async () => {
    const res = await call('POST', '/v1/admin/projects', {
      account_id: await account(),
      name: 'S',
      solana_address: WALLET,
    });
    expect(rules(res)).toEqual(['solana_address: not_allowed']);
  });
});
