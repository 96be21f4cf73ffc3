import type { Address } from 'viem';
import { encodeFunctionData, erc20Abi, getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMerchant, type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  asTron,
  type ChainTokens,
  caughtUp,
  deployTokens,
  fromTron,
  getInvoice,
  LOCAL,
  localNetworkEnv,
  newInvoice,
  TRON_LOCAL,
  tronNetworkEnv,
} from '../../test/chain-app.js';
import { inviteAndAccept, signIn } from '../../test/dashboard.js';
import { eventually } from '../../test/webhooks.js';
import { money, toTokenUnits } from '../money/money.js';
import { safeChecksum } from './safe-checksum.js';

// Refunds end to end on one Hardhat node, watched twice: as an EVM network (`localchain`, 3
// confirmations) and as TRON's Nile (T-addresses, 19 confirmations). A payer pays an invoice from
// account #0; the merchant refunds part of it; the payer claims it with an address of their own; the
// merchant's wallet (another account) sends the tokens; the watcher sees them and confirms the refund.
const units = (amount: string) => toTokenUnits(money(amount), 6);

let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let evm: Merchant;
let tron: Merchant;
const clock = manualClock();

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  const a = localNetworkEnv(chain, tokens);
  const b = tronNetworkEnv(chain, tokens);
  const networks = [...JSON.parse(a.PAYDESK_NETWORKS as string), ...JSON.parse(b.PAYDESK_NETWORKS as string)];
  t = await startTestApp({
    env: { ...a, ...b, PAYDESK_NETWORKS: JSON.stringify(networks) },
    workers: true,
    clock,
  });
  evm = await createMerchant(t.app, { network: LOCAL, currency: 'USDT', xpub: TEST_XPUB });
  tron = await createMerchant(t.app, { network: TRON_LOCAL, currency: 'USDT', xpub: TRON_TEST_XPUB });
  // The merchants' own wallets, which send refunds: accounts #2 and #3.
  await chain.mint(tokens.usdt, chain.accounts[2] as Address, units('1000'));
  await chain.mint(tokens.usdt, chain.accounts[3] as Address, units('1000'));
}, 60_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

const synced = (network = LOCAL) => caughtUp(t, chain, 15_000, network);

async function paidInvoice(
  m: Merchant,
  amount: string,
  depth: number,
  network: string,
  payTo = (a: string) => a,
) {
  const inv = await newInvoice(t, m, amount);
  await chain.transfer(tokens.usdt, payTo(inv.pay_address) as Address, units(amount));
  await chain.mine(depth);
  await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'paid', 15_000);
  await synced(network);
  return inv.id;
}

const refund = (m: Merchant, id: string, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/merchant/invoices/${id}/refunds`,
    headers: m.auth,
    payload: body,
  });

const claim = (claimUrl: string, method: string, address: string) =>
  t.app.inject({
    method: 'POST',
    url: new URL(claimUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ method, address }).toString(),
  });

async function refundOf(m: Merchant, invoiceId: string, refundId: string) {
  const res = await t.app.inject({ url: `/v1/merchant/invoices/${invoiceId}/refunds`, headers: m.auth });
  return res.json().data.find((r: { id: string }) => r.id === refundId);
}

const eventsOf = (refundId: string, type: string) =>
  t.database.db
    .selectFrom('events')
    .select('body')
    .where('type', '=', type)
    .execute()
    .then((rows) => rows.map((r) => JSON.parse(r.body)).filter((e) => e.data.refund.id === refundId));

describe('a refund on an EVM network', () => {
  test("claimed, paid from the merchant's wallet, sent at inclusion, confirmed at depth; then a second refund of the rest", async () => {
    const invoiceId = await paidInvoice(evm, '30.00', 3, LOCAL);
    const payer = getAddress(chain.accounts[5] as Address);
    const first = (await refund(evm, invoiceId, { amount: '10.00', reason: 'one item returned' })).json().data
      .refund;
    expect((await claim(first.claim_url, `${LOCAL}:USDT`, payer)).statusCode).toBe(303);
    expect(await refundOf(evm, invoiceId, first.id)).toMatchObject({
      status: 'ready',
      network: LOCAL,
      address: payer,
    });
    expect(await eventsOf(first.id, 'refund.ready')).toHaveLength(1);

    // Too little does not pay it, nor does another token.
    await chain.transfer(tokens.usdt, payer, units('9.99'), chain.accounts[2] as Address);
    await chain.transfer(tokens.other, payer, units('10.00'));
    await synced();
    expect((await refundOf(evm, invoiceId, first.id)).status).toBe('ready');

    const tx = await chain.transfer(tokens.usdt, payer, units('10.00'), chain.accounts[2] as Address);
    await synced();
    expect(await refundOf(evm, invoiceId, first.id)).toMatchObject({ status: 'sent', tx_hash: tx });
    await chain.mine(2);
    await eventually(async () => (await refundOf(evm, invoiceId, first.id)).status === 'confirmed', 15_000);
    const [confirmed] = await eventsOf(first.id, 'refund.confirmed');
    expect(confirmed.data).toMatchObject({
      refund: { id: first.id, status: 'confirmed', tx_hash: tx, amount: '10.00' },
      previous_status: 'sent',
      token: 'USDT',
      token_amount: '10.000000',
    });

    // The link works once: a second answer changes nothing.
    expect(
      (await claim(first.claim_url, `${LOCAL}:USDT`, getAddress(chain.accounts[6] as Address))).statusCode,
    ).toBe(303);
    expect((await refundOf(evm, invoiceId, first.id)).address).toBe(payer);

    // Above what is left: refused. The rest, by default: 20.00.
    const over = await refund(evm, invoiceId, { amount: '20.01' });
    expect(over.json().error.details.errors[0].rule).toBe('exceeds_paid');
    const second = (await refund(evm, invoiceId)).json().data.refund;
    expect(second.amount).toBe('20.00');
    // A transfer made before the refund was ready does not pay it.
    await chain.transfer(tokens.usdt, payer, units('20.00'), chain.accounts[2] as Address);
    await synced();
    expect((await claim(second.claim_url, `${LOCAL}:USDT`, payer)).statusCode).toBe(303);
    await chain.mine(3);
    await synced();
    expect((await refundOf(evm, invoiceId, second.id)).status).toBe('ready');
    const tx2 = await chain.transfer(tokens.usdt, payer, units('20.00'), chain.accounts[2] as Address);
    await chain.mine(2);
    await eventually(async () => (await refundOf(evm, invoiceId, second.id)).status === 'confirmed', 15_000);
    expect((await refundOf(evm, invoiceId, second.id)).tx_hash).toBe(tx2);
    const after = await getInvoice(t, evm, invoiceId);
    expect(after).toMatchObject({ status: 'paid', amount_refunded: '30.00' });
    // The invoice object lists the refund with the transfer that paid it.
    expect(
      after.refunds.some(
        (r: { status: string; tx_hash: string | null }) => r.status === 'confirmed' && r.tx_hash,
      ),
    ).toBe(true);
  });
});

describe('a batch payout (contract §22)', () => {
  test('a lone 2.00 pays the 2.00 refund, not an older 1.00; one transaction of 1.00 and 2.00 pays two refunds', async () => {
    const invoiceId = await paidInvoice(evm, '5.00', 3, LOCAL);
    const payer = getAddress(chain.accounts[9] as Address);
    const ready = async (amount: string) => {
      clock.advance(1000); // created one after the other: "the oldest" is well defined
      const r = (await refund(evm, invoiceId, { amount })).json().data.refund;
      expect((await claim(r.claim_url, `${LOCAL}:USDT`, payer)).statusCode).toBe(303);
      return r.id as string;
    };
    const [older, exact, newest] = [await ready('1.00'), await ready('2.00'), await ready('2.00')];
    await synced();
    const lone = await chain.transfer(tokens.usdt, payer, units('2.00'), chain.accounts[2] as Address);
    await synced();
    expect(await refundOf(evm, invoiceId, exact)).toMatchObject({ status: 'sent', tx_hash: lone });
    expect((await refundOf(evm, invoiceId, older)).status).toBe('ready');

    const batch = await chain.batchTransfer(
      tokens.usdt,
      [payer, payer],
      [units('1.00'), units('2.00')],
      chain.accounts[2] as Address,
    );
    await chain.mine(2);
    for (const id of [older, newest]) {
      await eventually(async () => (await refundOf(evm, invoiceId, id)).status === 'confirmed', 15_000);
      expect((await refundOf(evm, invoiceId, id)).tx_hash).toBe(batch);
    }
    expect((await refundOf(evm, invoiceId, exact)).tx_hash).toBe(lone);
  });
});

describe('a refund on the TRON-encoded network', () => {
  test('claimed with a T-address, paid, confirmed once 19 blocks hold it', async () => {
    const invoiceId = await paidInvoice(tron, '15.00', 19, TRON_LOCAL, fromTron);
    const payer = asTron(chain.accounts[7] as Address);
    const r = (await refund(tron, invoiceId)).json().data.refund;
    expect(r.amount).toBe('15.00');
    // An EVM address is refused on a TRON method; the T-address is taken.
    const wrong = await claim(r.claim_url, `${TRON_LOCAL}:USDT`, getAddress(chain.accounts[7] as Address));
    expect(wrong.statusCode).toBe(422);
    expect((await claim(r.claim_url, `${TRON_LOCAL}:USDT`, payer)).statusCode).toBe(303);
    const tx = await chain.transfer(
      tokens.usdt,
      fromTron(payer),
      units('15.00'),
      chain.accounts[3] as Address,
    );
    await synced(TRON_LOCAL);
    expect(await refundOf(tron, invoiceId, r.id)).toMatchObject({ status: 'sent', tx_hash: tx.slice(2) });
    await chain.mine(18);
    await eventually(async () => (await refundOf(tron, invoiceId, r.id)).status === 'confirmed', 15_000);
    expect(await getInvoice(t, tron, invoiceId)).toMatchObject({ status: 'paid', amount_refunded: '15.00' });
  });
});

describe('a reorganisation', () => {
  test("that drops a refund's transfer puts the refund back to ready; mined again, it is confirmed", async () => {
    const invoiceId = await paidInvoice(evm, '8.00', 3, LOCAL);
    const payer = getAddress(chain.accounts[8] as Address);
    const r = (await refund(evm, invoiceId)).json().data.refund;
    expect((await claim(r.claim_url, `${LOCAL}:USDT`, payer)).statusCode).toBe(303);
    await synced();
    const before = await chain.snapshot();
    const tx = await chain.transfer(tokens.usdt, payer, units('8.00'), chain.accounts[2] as Address);
    await synced();
    expect(await refundOf(evm, invoiceId, r.id)).toMatchObject({ status: 'sent', tx_hash: tx });

    await chain.revert(before);
    await chain.mine(2); // a longer fork without the transfer, still short of burying anything old
    await eventually(async () => (await refundOf(evm, invoiceId, r.id)).status === 'ready', 15_000);
    expect((await refundOf(evm, invoiceId, r.id)).tx_hash).toBeNull();
    expect(await eventsOf(r.id, 'refund.confirmed')).toEqual([]);

    const again = await chain.transfer(tokens.usdt, payer, units('8.00'), chain.accounts[2] as Address);
    await chain.mine(2);
    await eventually(async () => (await refundOf(evm, invoiceId, r.id)).status === 'confirmed', 15_000);
    expect((await refundOf(evm, invoiceId, r.id)).tx_hash).toBe(again);
  });
});

describe('a Safe batch from the dashboard (contract §22)', () => {
  test('the ready refunds of the network as one Transaction Builder file; its transfers in one transaction confirm them all', async () => {
    await inviteAndAccept(t.app, evm.accountId, 'safe@shop.example');
    const owner = await signIn(t.app, 'safe@shop.example');
    const invoiceId = await paidInvoice(evm, '9.00', 3, LOCAL);
    const [one, two] = [getAddress(chain.accounts[10] as Address), getAddress(chain.accounts[11] as Address)];
    const ready = async (amount: string, payer: string) => {
      clock.advance(1000); // oldest first, in the file as in the matching
      const r = (await refund(evm, invoiceId, { amount })).json().data.refund;
      expect((await claim(r.claim_url, `${LOCAL}:USDT`, payer)).statusCode).toBe(303);
      return r.id as string;
    };
    const ids = [await ready('1.25', one), await ready('2.50', one), await ready('3.00', two)];
    await synced();
    expect((await owner.get('/dashboard/refunds')).body).toContain('Safe batch for Local chain');

    const res = await owner.get(`/dashboard/refunds/export.safe.json?network=${LOCAL}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="refunds-ready-localchain-.*\.safe\.json"$/,
    );
    const file = JSON.parse(res.body);
    const { checksum, ...meta } = file.meta;
    // What Safe's Transaction Builder checks on import: the checksum of the file without it.
    expect(checksum).toBe(safeChecksum({ ...file, meta }));
    expect(file).toMatchObject({ version: '1.0', chainId: String(chain.chainId) });
    expect(file.meta.description).toContain(ids.join(', '));
    const token = getAddress(tokens.usdt);
    const transfer = (to: string, value: string) => ({
      to: token,
      value: '0',
      data: null,
      contractMethod: {
        inputs: [
          { internalType: 'address', name: 'to', type: 'address' },
          { internalType: 'uint256', name: 'value', type: 'uint256' },
        ],
        name: 'transfer',
        payable: false,
      },
      contractInputsValues: { to, value },
    });
    // Atomic units of the 6-decimal token, oldest refund first.
    expect(file.transactions).toEqual([
      transfer(one, '1250000'),
      transfer(one, '2500000'),
      transfer(two, '3000000'),
    ]);
    // Each entry encodes, as the Transaction Builder encodes it, the standard ERC-20 transfer call.
    for (const tx of file.transactions) {
      const method = { ...tx.contractMethod, type: 'function', outputs: [], stateMutability: 'nonpayable' };
      const args = [tx.contractInputsValues.to, BigInt(tx.contractInputsValues.value)] as const;
      expect(encodeFunctionData({ abi: [method], functionName: 'transfer', args })).toBe(
        encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args }),
      );
    }

    // The merchant's wallet sends the file's transfers in one transaction, as a Safe's MultiSend does.
    const batch = await chain.batchTransfer(
      token,
      file.transactions.map((tx: { contractInputsValues: { to: Address } }) => tx.contractInputsValues.to),
      file.transactions.map((tx: { contractInputsValues: { value: string } }) =>
        BigInt(tx.contractInputsValues.value),
      ),
      chain.accounts[2] as Address,
    );
    await chain.mine(2);
    for (const id of ids) {
      await eventually(async () => (await refundOf(evm, invoiceId, id)).status === 'confirmed', 15_000);
      expect((await refundOf(evm, invoiceId, id)).tx_hash).toBe(batch);
    }
    const none = await owner.get(`/dashboard/refunds/export.safe.json?network=${LOCAL}`);
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('No refund is ready to send on Local chain');
    const tron = await owner.get(`/dashboard/refunds/export.safe.json?network=${TRON_LOCAL}`);
    expect(tron.statusCode).toBe(422);
    expect(tron.body).toContain('not an EVM network');
  });
});
