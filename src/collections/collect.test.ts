import { randomBytes } from 'node:crypto';
import { type Address, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_TOKEN, type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { type LocalChain, startChain, stopAllChains, TOKEN_ABI } from '../../test/chain.js';
import {
  type ChainTokens,
  caughtUp,
  chainMerchant,
  deployTokens,
  getInvoice,
  LOCAL,
  localNetworkEnv,
  newInvoice,
} from '../../test/chain-app.js';
import { installFactory } from '../../test/forwarders.js';
import { deployUsdcLike, USDC_LIKE_ABI } from '../../test/usdc-like.js';
import { eventually } from '../../test/webhooks.js';
import { FACTORY_ADDRESS, forwarderAddress } from '../forwarders/address.js';
import { invoiceSalt } from '../forwarders/salt.js';

/**
 * Collections end to end (contract §16): the real app with its workers (chain watcher and collector),
 * a Hardhat node with the deterministic-deployment proxy and the factory, and a collector key that
 * holds only gas money. Confirmations: 3.
 */

let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
const clock = manualClock();
const collectorKey: Hex = `0x${randomBytes(32).toString('hex')}`;
const collector = privateKeyToAccount(collectorKey).address;
const payout = getAddress(`0x${randomBytes(20).toString('hex')}`);
const ONE_ETH = 10n ** 18n;

beforeAll(async () => {
  chain = await startChain();
  // USDC is the USDC-like token (FiatToken's proxy, pause and blacklist): a forwarder can be blacklisted.
  const usdcLike = (await deployUsdcLike(chain)).address;
  tokens = { ...(await deployTokens(chain)), usdc: usdcLike };
  await chain.wallet.writeContract({
    address: usdcLike,
    abi: USDC_LIKE_ABI,
    functionName: 'mint',
    args: [chain.accounts[0] as Address, 10n ** 15n],
  });
  await installFactory(chain);
  await chain.wallet.sendTransaction({ to: collector, value: ONE_ETH });
  t = await startTestApp({
    clock,
    workers: true,
    env: {
      ...localNetworkEnv(chain, tokens),
      PAYDESK_COLLECTOR_KEY: collectorKey,
      // High: collections here start by "Collect now", or by age where a test says so.
      PAYDESK_COLLECT_MIN_USD: '1000000',
    },
  });
  // USD: both tokens on one forwarder address.
  m = await chainMerchant(t, { payout_address: payout, currency: 'USD' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const units = (amount: string) => BigInt(Math.round(Number(amount) * 1e6));

async function balanceOf(token: Address, owner: Address): Promise<bigint> {
  return (await chain.publicClient.readContract({
    address: token,
    abi: TOKEN_ABI,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

/** An invoice paid on chain and confirmed. */
async function paidInvoice(amount: string, token: Address = tokens.usdt) {
  const inv = await invoice(amount);
  await chain.transfer(token, inv.pay_address, units(amount));
  await chain.mine(3);
  await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'paid');
  return inv;
}

/** An invoice and its one EVM address (both of its methods, USDT and USDC, share it). */
async function invoice(amount: string) {
  const inv = await newInvoice(t, m, amount);
  const [method] = inv.payment_methods as Array<{ pay_address: Address }>;
  return { ...inv, pay_address: method?.pay_address as Address };
}

const admin = (method: 'GET' | 'POST', body?: object) =>
  t.app.inject({
    method,
    url: `/v1/admin/projects/${m.projectId}/collections`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    ...(body ? { payload: body } : {}),
  });

async function gasOf(id: string): Promise<number> {
  const list = (await admin('GET')).json().data as Array<{ id: string; gas_used: number }>;
  return list.find((c) => c.id === id)?.gas_used as number;
}

/** Mines blocks until the collection is confirmed (the collector sends it; 3 confirmations). */
async function confirmed(id: string) {
  return eventually(async () => {
    await chain.mine(1);
    const list = (await admin('GET')).json().data as Array<{ id: string; status: string; gas_used: number }>;
    const c = list.find((x) => x.id === id);
    return c?.status === 'confirmed' && c;
  });
}

describe('a project with a payout address', () => {
  test('gets forwarder deposit addresses, computed from its payout and the invoice', async () => {
    const inv = await invoice('1.00');
    expect(inv.pay_address).toBe(forwarderAddress(FACTORY_ADDRESS, payout, invoiceSalt(m.projectId, inv.id)));
    const row = await t.database.db
      .selectFrom('invoices')
      .select(['payout_address', 'evm_address_index'])
      .where('id', '=', inv.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ payout_address: payout, evm_address_index: null });
  });

  test('"Collect now" moves every confirmed deposit to the payout in one transaction', async () => {
    const a = await paidInvoice('10.00', tokens.usdt);
    const b = await paidInvoice('2.50', tokens.usdc);
    const before = { usdt: await balanceOf(tokens.usdt, payout), usdc: await balanceOf(tokens.usdc, payout) };
    const res = await admin('POST', { network: LOCAL });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json().data.collection;
    expect(started).toMatchObject({
      status: 'pending',
      network: LOCAL,
      deposits: 2,
      amounts: { USDT: '10.00', USDC: '2.50' },
    });
    const done = await confirmed(started.id);
    expect(done).toMatchObject({ tx_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), deposits: 2 });
    expect(await balanceOf(tokens.usdt, payout)).toBe(before.usdt + units('10.00'));
    expect(await balanceOf(tokens.usdc, payout)).toBe(before.usdc + units('2.50'));
    expect(await balanceOf(tokens.usdt, a.pay_address)).toBe(0n);
    expect(await balanceOf(tokens.usdc, b.pay_address)).toBe(0n);
    // The transfers out of the forwarders are no payments: the invoices are as they were.
    await caughtUp(t, chain);
    for (const inv of [a, b]) {
      const now = await getInvoice(t, m, inv.id);
      expect(now.status).toBe('paid');
      expect(now.payments).toHaveLength(1);
    }
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'body'])
      .where('project_id', '=', m.projectId)
      .where('type', 'like', 'collection.%')
      .execute();
    expect(events.map((e) => e.type)).toContain('collection.confirmed');
    const body = JSON.parse(events.find((e) => e.type === 'collection.confirmed')?.body ?? '{}');
    expect(body.data.collection).toMatchObject({
      id: started.id,
      status: 'confirmed',
      gas_used: expect.any(Number),
      // The local chain is configured as a testnet (contract §21).
      livemode: false,
    });
    expect(body.livemode).toBe(false);
    // Nothing is left to collect.
    const again = await admin('POST', { network: LOCAL });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.details.errors[0]).toMatchObject({
      field: 'network',
      rule: 'nothing_to_collect',
    });
  });

  test('a payment to a forwarder already collected is collected again', async () => {
    const inv = await invoice('3.00');
    await chain.transfer(tokens.usdt, inv.pay_address, units('1.00'));
    await chain.mine(3);
    await eventually(async () => (await getInvoice(t, m, inv.id)).amount_paid === '1.00');
    // The part paid is collected while the invoice waits for the rest: the forwarder is deployed.
    const first = (await admin('POST', { network: LOCAL })).json().data.collection;
    expect(first).toMatchObject({ deposits: 1, amounts: { USDT: '1.00' } });
    await confirmed(first.id);
    expect(await chain.publicClient.getCode({ address: inv.pay_address })).not.toBe(undefined);
    // The rest arrives at the deployed forwarder, pays the invoice, and is collected in its turn.
    await chain.transfer(tokens.usdt, inv.pay_address, units('2.00'));
    await chain.mine(3);
    await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'paid');
    const before = await balanceOf(tokens.usdt, payout);
    const second = (await admin('POST', { network: LOCAL })).json().data.collection;
    expect(second).toMatchObject({ deposits: 1, amounts: { USDT: '2.00' } });
    const done = await confirmed(second.id);
    expect(await balanceOf(tokens.usdt, payout)).toBe(before + units('2.00'));
    // No deployment this time (CREATE2 and the forwarder's code, about 40,000 gas, are not paid again).
    expect(done.gas_used).toBeLessThan((await gasOf(first.id)) - 30_000);
  });

  test('a deposit whose sweep fails stays in its forwarder, collectable, and blocks none of the others', async () => {
    const frozen = await paidInvoice('7.00', tokens.usdc);
    const fine = await paidInvoice('8.00', tokens.usdt);
    // The token's issuer freezes one forwarder (as Circle can any address).
    await chain.wallet.writeContract({
      address: tokens.usdc,
      abi: USDC_LIKE_ABI,
      functionName: 'blacklist',
      args: [frozen.pay_address],
    });
    const before = await balanceOf(tokens.usdt, payout);
    const started = (await admin('POST', { network: LOCAL })).json().data.collection;
    expect(started).toMatchObject({ deposits: 2, amounts: { USDT: '8.00', USDC: '7.00' } });
    const done = await confirmed(started.id);
    // Confirmed with what it moved: the frozen deposit went back to the collectable ones.
    expect(done).toMatchObject({ deposits: 1, amounts: { USDT: '8.00' } });
    expect(await balanceOf(tokens.usdt, payout)).toBe(before + units('8.00'));
    expect(await balanceOf(tokens.usdt, fine.pay_address)).toBe(0n);
    expect(await balanceOf(tokens.usdc, frozen.pay_address)).toBe(units('7.00'));
    // "Collect now" tries it again; it moved nothing, so it failed, and the deposit is still there.
    const again = (await admin('POST', { network: LOCAL })).json().data.collection;
    expect(again).toMatchObject({ deposits: 1, amounts: { USDC: '7.00' } });
    await eventually(async () => {
      await chain.mine(1);
      const list = (await admin('GET')).json().data as Array<{ id: string; status: string }>;
      return list.find((x) => x.id === again.id)?.status === 'failed';
    });
    expect(await balanceOf(tokens.usdc, frozen.pay_address)).toBe(units('7.00'));
  });

  test('a collector out of gas waits, says so, and sends once it has gas again', async () => {
    await paidInvoice('4.00');
    await chain.testClient.setBalance({ address: collector, value: 0n });
    const res = await admin('POST', { network: LOCAL });
    const id = res.json().data.collection.id;
    const waiting = await eventually(async () => {
      const row = await t.database.db
        .selectFrom('collections')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.last_error === 'no_gas' && row;
    });
    expect(['queued', 'signed']).toContain(waiting.phase);
    const state = await t.database.db
      .selectFrom('collectors')
      .selectAll()
      .where('network', '=', LOCAL)
      .executeTakeFirstOrThrow();
    expect(state).toMatchObject({ state: 'no_gas', address: collector });
    await chain.testClient.setBalance({ address: collector, value: ONE_ETH });
    await confirmed(id);
  });

  test('a collection dropped from the mempool is sent again, and nothing is collected twice', async () => {
    const inv = await paidInvoice('5.00');
    const before = await balanceOf(tokens.usdt, payout);
    await chain.setAutomine(false);
    let id = '';
    try {
      id = (await admin('POST', { network: LOCAL })).json().data.collection.id;
      const signed = await eventually(async () => {
        const row = await t.database.db
          .selectFrom('collections')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirst();
        return row?.sent_at ? row : undefined;
      });
      await chain.testClient.dropTransaction({ hash: signed.tx_hash as Hex });
      // The collector finds no receipt and its nonce unused: the same signed transaction again.
      await eventually(async () => {
        const pending = await chain.publicClient.request({
          method: 'eth_getTransactionByHash',
          params: [signed.tx_hash as Hex],
        });
        return pending !== null;
      });
    } finally {
      await chain.setAutomine(true);
    }
    await confirmed(id);
    expect(await balanceOf(tokens.usdt, payout)).toBe(before + units('5.00'));
    expect(await balanceOf(tokens.usdt, inv.pay_address)).toBe(0n);
  });

  test('a collection reorganised away before its depth is sent again and confirmed once', async () => {
    const inv = await paidInvoice('9.00');
    const before = await balanceOf(tokens.usdt, payout);
    const fork = await chain.snapshot();
    const id = (await admin('POST', { network: LOCAL })).json().data.collection.id;
    // Mined at once (automine), one block deep of three: then that block is gone.
    const mined = await eventually(async () => {
      const row = await t.database.db
        .selectFrom('collections')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.block_hash ? row : undefined;
    });
    await chain.revert(fork);
    expect(
      await chain.publicClient.request({
        method: 'eth_getTransactionByHash',
        params: [mined.tx_hash as Hex],
      }),
    ).toBe(null);
    await confirmed(id);
    expect(await balanceOf(tokens.usdt, payout)).toBe(before + units('9.00'));
    expect(await balanceOf(tokens.usdt, inv.pay_address)).toBe(0n);
  });

  test('a deposit older than a day is collected without being asked', async () => {
    const inv = await paidInvoice('6.00');
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const made = await eventually(async () => {
      const list = (await admin('GET')).json().data as Array<{ id: string; amounts: Record<string, string> }>;
      return list.find((c) => c.amounts.USDT === '6.00');
    });
    await confirmed(made.id);
    expect(await balanceOf(tokens.usdt, inv.pay_address)).toBe(0n);
  });
});

describe('"Collect now" refused', () => {
  test('on a project that has no payout address, or a network that is not EVM', async () => {
    const plain = await chainMerchant(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/projects/${plain.projectId}/collections`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { network: LOCAL },
    });
    expect(res.json().error.details.errors[0]).toMatchObject({ rule: 'no_payout_address' });
    const sandbox = await admin('POST', { network: 'sandbox' });
    expect(sandbox.json().error.details.errors[0]).toMatchObject({ rule: 'not_evm' });
  });

  test('where the operator set no collector key, saying what to set', async () => {
    const off = await startTestApp({ env: localNetworkEnv(chain, tokens) });
    try {
      const other = await chainMerchant(off, { payout_address: payout });
      const res = await off.app.inject({
        method: 'POST',
        url: `/v1/admin/projects/${other.projectId}/collections`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { network: LOCAL },
      });
      expect(res.statusCode).toBe(422);
      const [error] = res.json().error.details.errors;
      expect(error).toMatchObject({ field: 'network', rule: 'collection_off' });
      expect(error.message).toContain('PAYDESK_COLLECTOR_KEY');
      expect(error.message).not.toContain(collectorKey.slice(2, 10));
    } finally {
      await off.close();
    }
  });
});
