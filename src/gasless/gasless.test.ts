import { randomBytes } from 'node:crypto';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { type Address, getAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  type ChainTokens,
  chainMerchant,
  deployTokens,
  getInvoice,
  newInvoice,
} from '../../test/chain-app.js';
import { merchantWithOwner } from '../../test/dashboard.js';
import { installFactory } from '../../test/forwarders.js';
import { gaslessNetworkEnv, gaslessPayer, postAuthorization, signAuthorization } from '../../test/gasless.js';
import { deployUsdcLike, USDC_LIKE_ABI } from '../../test/usdc-like.js';
import { eventually } from '../../test/webhooks.js';
import { invoiceNonce } from './typed-data.js';

/**
 * Gasless USDC end to end (contract §23): the real app and its chain watcher, a Hardhat node with the
 * USDC-like token (EIP-3009), a payer who holds the token and no native coin, and a relayer key that
 * holds only gas money. Confirmations: 3.
 */
let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
const clock = manualClock();
const relayerKey: Hex = `0x${randomBytes(32).toString('hex')}`;
const relayer = privateKeyToAccount(relayerKey).address;
const payout = getAddress(`0x${randomBytes(20).toString('hex')}`);

beforeAll(async () => {
  chain = await startChain();
  tokens = { ...(await deployTokens(chain)), usdc: (await deployUsdcLike(chain)).address };
  await installFactory(chain);
  await chain.wallet.sendTransaction({ to: relayer, value: 10n ** 18n });
  t = await startTestApp({
    clock,
    workers: ['chain-scan:localchain'],
    env: { ...gaslessNetworkEnv(chain, tokens), PAYDESK_RELAYER_KEY: relayerKey },
  });
  m = await chainMerchant(t, { payout_address: payout, currency: 'USDC' });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const usdcBalance = async (owner: Address) =>
  (await chain.publicClient.readContract({
    address: tokens.usdc,
    abi: USDC_LIKE_ABI,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;

/** An invoice of 12.50 USDC, its expiry in seconds, and a payer holding 20 USDC and no native coin. */
/** Anyone (`account`) sending a payer's signed authorization to the token themselves. */
function strangerSubmits(
  body: Awaited<ReturnType<typeof signAuthorization>>,
  account: Address,
  fees: { gas?: bigint; maxPriorityFeePerGas?: bigint; maxFeePerGas?: bigint } = {},
) {
  const a = body.authorization as Record<string, string>;
  return chain.wallet.writeContract({
    address: tokens.usdc,
    abi: USDC_LIKE_ABI,
    functionName: 'transferWithAuthorization',
    args: [
      a.from,
      a.to,
      BigInt(a.value as string),
      0n,
      BigInt(a.validBefore as string),
      a.nonce,
      body.signature,
    ],
    account,
    ...fees,
  });
}

async function setUp() {
  const invoice = await newInvoice(t, m, '12.50');
  const validBefore = BigInt(Math.floor(new Date(invoice.payment_expires_at as string).getTime() / 1000));
  const payer = await gaslessPayer(chain, tokens.usdc, 20_000_000n);
  const good = { to: payout, value: 12_500_000n, validBefore, nonce: invoiceNonce(invoice.id) };
  return { invoice, payer, good };
}

const paymentsOf = (id: string) =>
  t.database.db.selectFrom('payments').selectAll().where('invoice_id', '=', id).execute();

describe('a signed transfer', () => {
  test('pays the invoice straight to the payout address, confirmed at depth, from a payer with no native coin', async () => {
    const { invoice, payer, good } = await setUp();
    expect(await chain.publicClient.getBalance({ address: payer.address })).toBe(0n);
    const res = await postAuthorization(
      t,
      invoice.id,
      await signAuthorization(payer, chain, tokens.usdc, good),
    );
    expect(res.statusCode, res.body).toBe(202);
    const { tx_hash } = res.json().data;
    await eventually(
      async () =>
        (await getInvoice(t, m, invoice.id)).status === 'pending' &&
        (await paymentsOf(invoice.id)).length === 1,
    );
    await chain.mine(2);
    const paid = await eventually(async () => {
      const inv = await getInvoice(t, m, invoice.id);
      return inv.status === 'paid' && inv;
    });
    expect(paid.tx_hash).toBe(tx_hash);
    expect(await usdcBalance(payout)).toBeGreaterThanOrEqual(12_500_000n);
    expect(await chain.publicClient.getBalance({ address: payer.address })).toBe(0n);
    // The relayer key is in no log line.
    expect(t.rawLogs()).not.toContain(relayerKey.slice(2));
  });

  test('posted again, or submitted again by anyone, pays once', async () => {
    const { invoice, payer, good } = await setUp();
    const body = await signAuthorization(payer, chain, tokens.usdc, good);
    const first = await postAuthorization(t, invoice.id, body);
    expect(first.statusCode, first.body).toBe(202);
    const again = await postAuthorization(t, invoice.id, body);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().data.tx_hash).toBe(first.json().data.tx_hash);
    // A stranger replays the same signature on the token: refused there.
    await expect(strangerSubmits(body, chain.accounts[5] as Address)).rejects.toThrow(/used or canceled/);
    await chain.mine(3);
    await eventually(async () => (await getInvoice(t, m, invoice.id)).status === 'paid');
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
    expect(await usdcBalance(payer.address)).toBe(7_500_000n);
  });

  test("front-run from the mempool by a stranger: the stranger's transaction pays the invoice, once", async () => {
    const { invoice, payer, good } = await setUp();
    const body = await signAuthorization(payer, chain, tokens.usdc, good);
    await chain.setAutomine(false);
    try {
      const res = await postAuthorization(t, invoice.id, body);
      expect(res.statusCode, res.body).toBe(202);
      const stranger = await strangerSubmits(body, chain.accounts[6] as Address, {
        gas: 200_000n,
        maxPriorityFeePerGas: 10n ** 11n,
        maxFeePerGas: 10n ** 12n,
      });
      await chain.mine(3);
      const paid = await eventually(async () => {
        const inv = await getInvoice(t, m, invoice.id);
        return inv.status === 'paid' && inv;
      });
      expect(paid.tx_hash).toBe(stranger);
    } finally {
      await chain.setAutomine(true);
    }
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
    expect(await usdcBalance(payer.address)).toBe(7_500_000n);
  });

  test('reorganised away is reversed, and posted again pays', async () => {
    const { invoice, payer, good } = await setUp();
    const body = await signAuthorization(payer, chain, tokens.usdc, good);
    const snapshot = await chain.snapshot();
    await chain.mine(1);
    expect((await postAuthorization(t, invoice.id, body)).statusCode).toBe(202);
    await eventually(async () => (await paymentsOf(invoice.id)).some((p) => p.status === 'pending'));
    await chain.revert(snapshot);
    await chain.mine(3); // the new fork is longer than the old one: the watcher sees the reorganisation
    await eventually(async () => (await paymentsOf(invoice.id)).every((p) => p.status === 'reversed'));
    const again = await postAuthorization(t, invoice.id, body);
    expect(again.statusCode, again.body).toBe(202);
    await chain.mine(3);
    await eventually(async () => (await getInvoice(t, m, invoice.id)).status === 'paid', 20_000);
  });
});

describe('a refused signed transfer leaves the invoice open, with the reason', () => {
  const cases: Array<[string, string, (g: Awaited<ReturnType<typeof setUp>>) => Promise<unknown>]> = [
    [
      'a wrong signer',
      'signer',
      async ({ payer, good }) =>
        signAuthorization(payer, chain, tokens.usdc, good, privateKeyToAccount(`0x${'77'.repeat(32)}`)),
    ],
    [
      'a wrong amount',
      'amount',
      async ({ payer, good }) =>
        signAuthorization(payer, chain, tokens.usdc, { ...good, value: good.value - 1n }),
    ],
    [
      'a wrong recipient',
      'recipient',
      async ({ payer, good }) =>
        signAuthorization(payer, chain, tokens.usdc, { ...good, to: chain.accounts[3] as Address }),
    ],
    [
      'a foreign nonce',
      'nonce',
      async ({ payer, good }) =>
        signAuthorization(payer, chain, tokens.usdc, {
          ...good,
          nonce: invoiceNonce('inv_someoneelse000000000000'),
        }),
    ],
    [
      'an authorization past the invoice expiry',
      'window',
      async ({ payer, good }) =>
        signAuthorization(payer, chain, tokens.usdc, { ...good, validBefore: good.validBefore + 1n }),
    ],
    [
      'an expired authorization',
      'expired',
      async ({ payer, good }) =>
        signAuthorization(payer, chain, tokens.usdc, {
          ...good,
          validBefore: BigInt(Math.floor(clock().getTime() / 1000)),
        }),
    ],
    [
      'a payer without the balance',
      'balance',
      async ({ good }) =>
        signAuthorization(await gaslessPayer(chain, tokens.usdc, 1_000_000n), chain, tokens.usdc, good),
    ],
  ];
  test.each(cases)('%s', async (_name, rule, body) => {
    const setup = await setUp();
    const res = await postAuthorization(t, setup.invoice.id, await body(setup));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details.errors[0].rule).toBe(rule);
    expect((await getInvoice(t, m, setup.invoice.id)).status).toBe('pending');
    expect(await paymentsOf(setup.invoice.id)).toHaveLength(0);
  });

  test('an unknown invoice is NOT_FOUND, and an invoice without a gasless method says so', async () => {
    const { payer, good } = await setUp();
    const body = await signAuthorization(payer, chain, tokens.usdc, good);
    expect((await postAuthorization(t, 'inv_nosuchinvoice00000000000', body)).statusCode).toBe(404);
    const usdt = await chainMerchant(t, { payout_address: payout, currency: 'USDT' });
    const other = await newInvoice(t, usdt, '12.50');
    const res = await postAuthorization(t, other.id, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.errors[0]).toMatchObject({ field: 'network', rule: 'unavailable' });
  });
});

describe('x402 version 2 on GET /pay/{id}', () => {
  test('an unmodified x402 client pays an invoice end to end', async () => {
    const { invoice, payer } = await setUp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address}/pay/${invoice.id}`;
    // Without a payment: 402 and the requirements, one entry per gasless method.
    const first = await fetch(url, { headers: { accept: 'application/json' } });
    expect(first.status).toBe(402);
    const required = JSON.parse(
      Buffer.from(first.headers.get('payment-required') ?? '', 'base64').toString(),
    );
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [
        {
          scheme: 'exact',
          network: `eip155:${chain.chainId}`,
          asset: getAddress(tokens.usdc),
          amount: '12500000',
          payTo: payout,
          extra: { name: 'USD-like test coin', version: '2' },
        },
      ],
    });
    const pay = wrapFetchWithPaymentFromConfig(fetch, {
      schemes: [{ network: `eip155:${chain.chainId}`, client: new ExactEvmScheme(payer) }],
      // The client's own spend controls (its configuration, not a change to it): by default it pays
      // only the tokens it knows (USDC of the public chains) up to $1; here the local token, up to 12.50.
      spendControls: {
        allowedAssets: [
          { network: `eip155:${chain.chainId}`, asset: tokens.usdc, maxAmountPerPayment: '12500000' },
        ],
      },
    });
    const res = await pay(url, { headers: { accept: 'application/json' } });
    expect(res.status, await res.clone().text()).toBe(200);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
    expect(settlement).toMatchObject({
      success: true,
      network: `eip155:${chain.chainId}`,
      payer: payer.address,
    });
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe('pending');
    await chain.mine(3);
    const paid = await eventually(async () => {
      const inv = await getInvoice(t, m, invoice.id);
      return inv.status === 'paid' && inv;
    });
    expect(paid.tx_hash).toBe(settlement.transaction);
    expect(await chain.publicClient.getBalance({ address: payer.address })).toBe(0n);
    // Paid: nothing more to pay, the status.
    const after = await fetch(url, { headers: { accept: 'application/json' } });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: { status: string } }).data.status).toBe('paid');
  });

  test('a browser still gets the page, and a refused PAYMENT-SIGNATURE answers 402 with the reason', async () => {
    const { invoice, payer, good } = await setUp();
    const page = await t.app.inject({
      method: 'GET',
      url: `/pay/${invoice.id}`,
      headers: { accept: 'text/html,*/*' },
    });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const signed = await signAuthorization(payer, chain, tokens.usdc, { ...good, value: 1n });
    const header = Buffer.from(
      JSON.stringify({
        x402Version: 2,
        accepted: { scheme: 'exact', network: `eip155:${chain.chainId}` },
        payload: { authorization: signed.authorization, signature: signed.signature },
      }),
    ).toString('base64');
    const res = await t.app.inject({
      method: 'GET',
      url: `/pay/${invoice.id}`,
      headers: { accept: 'application/json', 'payment-signature': header },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().error.details.errors[0].rule).toBe('amount');
    expect(res.headers['payment-required']).toBeTruthy();
    expect((await getInvoice(t, m, invoice.id)).status).toBe('pending');
  });
});

describe('the relayer', () => {
  test('the page offers the wallet while the relayer has gas; a relayer without gas turns it off and the dashboard says so', async () => {
    const { invoice } = await setUp();
    const funded = await t.app.inject({
      method: 'GET',
      url: `/pay/${invoice.id}`,
      headers: { accept: 'text/html' },
    });
    expect(funded.body).toContain('Pay from your browser wallet');
    // A second instance whose relayer key holds nothing.
    const dry = await startTestApp({
      env: {
        ...gaslessNetworkEnv(chain, tokens),
        PAYDESK_RELAYER_KEY: `0x${randomBytes(32).toString('hex')}`,
      },
    });
    try {
      const { m: merchant, owner } = await merchantWithOwner(dry.app, 'owner@gasless.test', {
        network: 'localchain',
        currency: 'USDC',
        xpub: TEST_XPUB,
        payout_address: payout,
      });
      const open = await newInvoice(dry, merchant, '12.50');
      const page = await dry.app.inject({
        method: 'GET',
        url: `/pay/${open.id}`,
        headers: { accept: 'text/html' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Payment address');
      expect(page.body).not.toContain('Pay from your browser wallet');
      const dashboard = await owner.get('/dashboard/collections');
      expect(dashboard.body).toContain('Gasless payments: relayer');
      expect(dashboard.body).toContain('Out of gas: the wallet button is off');
      expect(dashboard.body).toContain('Relayer gas is low on Local chain');
      expect(dry.rawLogs()).not.toContain(relayerKey.slice(2));
    } finally {
      await dry.close();
    }
  });
});
