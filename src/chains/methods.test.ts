import { sql } from 'kysely';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import { TEST_XPUB, TRON_TEST_XPUB } from '../../test/chain/wallet.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  asTron,
  type ChainTokens,
  caughtUp,
  deployTokens,
  fromTron,
  getInvoice,
  TRON_LOCAL,
} from '../../test/chain-app.js';
import { eventually } from '../../test/webhooks.js';
import { money, toTokenUnits } from '../money/money.js';

// Payment methods end to end (contract §15): one instance watching two EVM chains with their own
// chain ids (two Hardhat nodes, networks `chain-a` and `chain-b`) and a TRON-encoded one (a third
// node as `tron-nile`), one invoice paid across two of them, a payment on an EVM network the invoice
// does not accept, and the underpayment tolerance's edge. The real app, its watchers and its database.
const A = 'chain-a';
const B = 'chain-b';
const DEPTH = 2;
const units = (amount: string) => toTokenUnits(money(amount), 6);

let chainA: LocalChain;
let chainB: LocalChain;
let chainTron: LocalChain;
let tokensA: ChainTokens;
let tokensB: ChainTokens;
let tokensTron: ChainTokens;
let t: TestApp;
const clock = manualClock();

function evmEntry(name: string, chain: LocalChain, tokens: ChainTokens) {
  return {
    name,
    label: name === A ? 'Chain A' : 'Chain B',
    chainId: chain.chainId,
    testnet: true,
    confirmations: DEPTH,
    pollIntervalMs: 100,
    maxBlockRange: 100,
    tokens: { USDT: { address: tokens.usdt, decimals: 6 }, USDC: { address: tokens.usdc, decimals: 6 } },
  };
}

beforeAll(async () => {
  [chainA, chainB, chainTron] = await Promise.all([
    startChain({ chainId: 31337 }),
    startChain({ chainId: 31338 }),
    startChain({ chainId: 31339 }),
  ]);
  [tokensA, tokensB, tokensTron] = await Promise.all([
    deployTokens(chainA),
    deployTokens(chainB),
    deployTokens(chainTron),
  ]);
  const env = {
    PAYDESK_NETWORKS: JSON.stringify([
      evmEntry(A, chainA, tokensA),
      evmEntry(B, chainB, tokensB),
      // TRON's depth (19) would make this file mine hundreds of blocks; 2 keeps it about methods.
      {
        name: TRON_LOCAL,
        pollIntervalMs: 100,
        confirmations: DEPTH,
        tokens: { USDT: { address: asTron(tokensTron.usdt), decimals: 6 } },
      },
    ]),
    PAYDESK_RPC_CHAIN_A: chainA.rpcUrl,
    PAYDESK_RPC_CHAIN_B: chainB.rpcUrl,
    PAYDESK_RPC_TRON_NILE: chainTron.rpcUrl,
  };
  t = await startTestApp({ env, workers: true, clock });
}, 90_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

/** A USD project accepting USDT on chain A, USDC on chain B and USDT on TRON (by default). */
function merchant(project: Record<string, unknown> = {}): Promise<Merchant> {
  return createMerchant(t.app, {
    currency: 'USD',
    payment_methods: [
      { network: A, currency: 'USDT' },
      { network: B, currency: 'USDC' },
      { network: TRON_LOCAL, currency: 'USDT' },
    ],
    evm_xpub: TEST_XPUB,
    tron_xpub: TRON_TEST_XPUB,
    ...project,
  });
}

async function invoiceOf(m: Merchant, body: object) {
  const res = await createInvoice(t.app, m, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const settled = () =>
  Promise.all([
    caughtUp(t, chainA, 15_000, A),
    caughtUp(t, chainB, 15_000, B),
    caughtUp(t, chainTron, 15_000, TRON_LOCAL),
  ]);

async function eventsOf(invoiceId: string) {
  const rows = await t.database.db
    .selectFrom('events')
    .select(['type', 'body'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('created_at')
    .orderBy(sql`seq`)
    .execute();
  return rows.map((r) => ({ type: r.type, data: JSON.parse(r.body).data }));
}

const statusBecomes = (m: Merchant, id: string, status: string) =>
  eventually(async () => {
    const invoice = await getInvoice(t, m, id);
    return invoice.status === status && invoice;
  });

describe('one invoice, every method its project accepts', () => {
  test('offers each method with its address: one EVM address on both EVM networks, a T… address on TRON', async () => {
    const m = await merchant();
    const inv = await invoiceOf(m, { amount: '10.00' });
    expect(inv).toMatchObject({ currency: 'USD', network: null, pay_address: null, payments: [] });
    const [a, b, tron] = inv.payment_methods;
    expect(a).toMatchObject({ network: A, currency: 'USDT', amount_due: '10.000000' });
    expect(b).toMatchObject({ network: B, currency: 'USDC', amount_due: '10.000000' });
    expect(tron).toMatchObject({ network: TRON_LOCAL, currency: 'USDT', amount_due: '10.000000' });
    expect(a.pay_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(b.pay_address).toBe(a.pay_address);
    expect(tron.pay_address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  });

  test('a part in USDC on chain B and the rest in USDT on TRON pay it; each payment names its network and token', async () => {
    const m = await merchant();
    const inv = await invoiceOf(m, { amount: '10.00' });
    const evm = inv.payment_methods[1].pay_address as Address;
    const tronAddress = inv.payment_methods[2].pay_address as string;

    const first = await chainB.transfer(tokensB.usdc, evm, units('4.00'));
    await settled();
    const part = await getInvoice(t, m, inv.id);
    // The first payment shows which method is in use.
    expect(part).toMatchObject({ status: 'pending', network: B, pay_address: evm, amount_paid: '0.00' });
    expect(part.payment_methods.map((p: { amount_due: string }) => p.amount_due)).toEqual([
      '6.000000',
      '6.000000',
      '6.000000',
    ]);
    await chainB.mine(DEPTH);
    await eventually(async () => (await getInvoice(t, m, inv.id)).amount_paid === '4.00');

    const second = await chainTron.transfer(tokensTron.usdt, fromTron(tronAddress), units('6.00'));
    await chainTron.mine(DEPTH);
    const paid = await statusBecomes(m, inv.id, 'paid');
    expect(paid).toMatchObject({ amount_paid: '10.00', network: B, tx_hash: second.slice(2) });
    expect(paid.payments).toMatchObject([
      { network: B, currency: 'USDC', tx_hash: first, amount: '4.00', status: 'confirmed' },
      {
        network: TRON_LOCAL,
        currency: 'USDT',
        tx_hash: second.slice(2),
        amount: '6.00',
        status: 'confirmed',
      },
    ]);
    const events = await eventsOf(inv.id);
    expect(events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.payment_detected',
      'invoice.payment_detected',
      'invoice.paid',
    ]);
    expect(events[1]?.data.payment).toMatchObject({ network: B, currency: 'USDC', amount: '4.00' });
    expect(events[2]?.data.payment).toMatchObject({ network: TRON_LOCAL, currency: 'USDT', amount: '6.00' });
  });

  test('a payment on an EVM network the invoice does not accept is recorded as unaccepted and never credited', async () => {
    const m = await merchant({ payment_methods: [{ network: B, currency: 'USDC' }], tron_xpub: null });
    const inv = await invoiceOf(m, { amount: '5.00' });
    expect(inv).toMatchObject({ network: B, currency: 'USD' });
    // The same address on chain A, and USDT on chain B: known tokens on watched networks, not accepted.
    const wrongNetwork = await chainA.transfer(tokensA.usdc, inv.pay_address, units('5.00'));
    const wrongToken = await chainB.transfer(tokensB.usdt, inv.pay_address, units('5.00'));
    await chainA.mine(DEPTH);
    await chainB.mine(DEPTH);
    await settled();
    const after = await getInvoice(t, m, inv.id);
    expect(after).toMatchObject({ status: 'pending', amount_paid: '0.00', tx_hash: null });
    expect(after.payment_methods[0].amount_due).toBe('5.000000');
    expect(after.payments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          network: A,
          currency: 'USDC',
          tx_hash: wrongNetwork,
          status: 'unaccepted',
        }),
        expect.objectContaining({ network: B, currency: 'USDT', tx_hash: wrongToken, status: 'unaccepted' }),
      ]),
    );
    const unaccepted = (await eventsOf(inv.id)).filter((e) => e.type === 'invoice.payment_unaccepted');
    expect(unaccepted.map((e) => e.data.payment.tx_hash).sort()).toEqual([wrongNetwork, wrongToken].sort());
    expect(unaccepted[0]?.data.invoice.status).toBe('pending');
  });

  test('network on create offers only that network; one the project does not accept is refused', async () => {
    const m = await merchant();
    const inv = await invoiceOf(m, { amount: '3.00', network: TRON_LOCAL });
    expect(inv.payment_methods).toHaveLength(1);
    expect(inv).toMatchObject({ network: TRON_LOCAL, pay_address: inv.payment_methods[0].pay_address });
    const refused = await createInvoice(t.app, m, { amount: '3.00', network: 'polygon' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.details.errors).toEqual([
      expect.objectContaining({ field: 'network', rule: 'not_accepted' }),
    ]);
  });
});

describe('underpayment tolerance (1.5 % of 10.00: paid from 9.85)', () => {
  test('one unit below the threshold is not paid; at the threshold it is', async () => {
    const m = await merchant({ underpayment_tolerance_percent: 1.5 });
    const below = await invoiceOf(m, { amount: '10.00', network: A });
    const at = await invoiceOf(m, { amount: '10.00', network: A });
    await chainA.transfer(tokensA.usdt, below.pay_address, units('9.849999'));
    await chainA.transfer(tokensA.usdt, at.pay_address, units('9.85'));
    await chainA.mine(DEPTH);
    const paid = await statusBecomes(m, at.id, 'paid');
    expect(paid).toMatchObject({ amount_paid: '9.85' });
    await settled();
    expect(await getInvoice(t, m, below.id)).toMatchObject({ status: 'pending', amount_paid: '9.849999' });
  });
});
