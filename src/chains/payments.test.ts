import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  type ChainTokens,
  caughtUp,
  chainMerchant,
  deployTokens,
  getInvoice,
  localNetworkEnv,
  newInvoice,
} from '../../test/chain-app.js';
import {
  COINBASE_USDTEUR,
  coinbaseSpot,
  KRAKEN_USDTEUR,
  krakenTicker,
  type RateSourceServer,
  rateSourceServer,
} from '../../test/rate-sources.js';
import { eventually } from '../../test/webhooks.js';
import { expireDue } from '../invoices/observe.js';
import { formatMoney, money, toTokenUnits } from '../money/money.js';

// A real Hardhat node, the real app with its workers, and USDT/USDC test tokens of 6 decimals.
// Confirmations: 3, so a payment is confirmed once its block and two more are mined.
const USD = (amount: string) => toTokenUnits(money(amount), 6); // "10.50" → 10500000n

let chain: LocalChain;
let rates: RateSourceServer;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
const clock = manualClock();

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  rates = await rateSourceServer();
  const rateEnv = { PAYDESK_RATE_SOURCES: 'kraken,coinbase', PAYDESK_RATE_TIMEOUT_MS: '300' };
  for (const source of ['KRAKEN', 'COINBASE'])
    Object.assign(rateEnv, { [`PAYDESK_RATE_${source}_URL`]: rates.url });
  t = await startTestApp({ env: { ...localNetworkEnv(chain, tokens), ...rateEnv }, workers: true, clock });
  m = await chainMerchant(t);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await rates?.close();
  await stopAllChains();
});

const pay = (to: string, amount: string, token: Address = tokens.usdt) =>
  chain.transfer(token, to as Address, USD(amount));

async function paymentsOf(invoiceId: string) {
  return t.database.db
    .selectFrom('payments')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .orderBy('seen_at')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, amount: formatMoney(money(r.amount)) })));
}

describe('a payment found on chain', () => {
  test('is seen at inclusion, then confirmed block by block until the invoice is paid', async () => {
    const inv = await newInvoice(t, m, '10.50');
    const tx = await pay(inv.pay_address, '10.50');
    await caughtUp(t, chain);
    const seen = await getInvoice(t, m, inv.id);
    expect(seen).toMatchObject({ status: 'pending', tx_hash: tx, amount_paid: '0.00', paid_at: null });
    expect(await paymentsOf(inv.id)).toMatchObject([{ tx_hash: tx, status: 'pending', amount: '10.50' }]);

    await chain.mine(1); // 2 confirmations of 3
    await caughtUp(t, chain);
    expect((await getInvoice(t, m, inv.id)).status).toBe('pending');

    await chain.mine(1); // 3 of 3
    const paid = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid).toMatchObject({ tx_hash: tx, amount_paid: '10.50', paid_late: false });
    expect(paid.paid_at).toEqual(expect.any(String));
  });

  test('two partial payments add up to paid', async () => {
    const inv = await newInvoice(t, m, '10.50');
    await pay(inv.pay_address, '4.00');
    await chain.mine(3);
    await caughtUp(t, chain);
    expect(await getInvoice(t, m, inv.id)).toMatchObject({ status: 'pending', amount_paid: '4.00' });
    const second = await pay(inv.pay_address, '6.50');
    await chain.mine(2);
    const paid = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid).toMatchObject({ amount_paid: '10.50', tx_hash: second });
    expect(await paymentsOf(inv.id)).toHaveLength(2);
  });

  test('an over-payment is paid, with the whole amount recorded', async () => {
    const inv = await newInvoice(t, m, '10.50');
    await pay(inv.pay_address, '12.25');
    await chain.mine(2);
    const paid = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid.amount_paid).toBe('12.25');
  });

  test('several Transfer logs of one transaction to one address are one payment of their sum', async () => {
    const inv = await newInvoice(t, m, '10.00');
    const to = inv.pay_address as Address;
    const tx = await chain.batchTransfer(tokens.usdt, [to, to], [USD('3.00'), USD('7.00')]);
    await chain.mine(2);
    const paid = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid).toMatchObject({ amount_paid: '10.00', tx_hash: tx });
    expect(await paymentsOf(inv.id)).toMatchObject([{ tx_hash: tx, amount: '10.00' }]);
  });

  test('another known token is recorded as unaccepted; an unknown token, or another address, is ignored', async () => {
    const inv = await newInvoice(t, m, '10.00');
    const usdc = await pay(inv.pay_address, '10.00', tokens.usdc); // the project bills in USDT
    await pay(inv.pay_address, '10.00', tokens.other); // a token Paydesk does not know
    await pay(chain.accounts[5] as Address, '10.00'); // USDT, but not to the invoice
    await chain.mine(3);
    await caughtUp(t, chain);
    expect(await getInvoice(t, m, inv.id)).toMatchObject({
      status: 'pending',
      tx_hash: null,
      amount_paid: '0.00',
      payments: [
        { network: 'localchain', currency: 'USDC', tx_hash: usdc, amount: '10.00', status: 'unaccepted' },
      ],
    });
    expect(await paymentsOf(inv.id)).toMatchObject([
      { tx_hash: usdc, currency: 'USDC', status: 'unaccepted' },
    ]);
  });
});

describe('payments around the deadline', () => {
  test('a payment first seen before the deadline and confirmed after it pays the invoice on time', async () => {
    const inv = await newInvoice(t, m, '5.00');
    await pay(inv.pay_address, '5.00');
    await caughtUp(t, chain);
    clock.advance(3_600_000 + 1000); // past the default 1 h TTL; the payment holds the invoice open
    // One round of the expiry job, run here rather than waited for: it finds the invoice held open.
    await expireDue(t.database.db, { now: clock(), publicBaseUrl: t.app.config.publicBaseUrl }, 500);
    expect((await getInvoice(t, m, inv.id)).status).toBe('pending');
    await chain.mine(2);
    const paid = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid.paid_late).toBe(false);
  });

  test('an expired invoice paid within 24 h is paid late', async () => {
    const inv = await newInvoice(t, m, '5.00');
    clock.advance(3_600_000 + 1000);
    await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'expired');
    await pay(inv.pay_address, '5.00');
    await chain.mine(2);
    const paid = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid).toMatchObject({ paid_late: true, amount_paid: '5.00' });
  });

  test('an expired invoice part-paid within 24 h fails as underpaid', async () => {
    const inv = await newInvoice(t, m, '5.00');
    clock.advance(3_600_000 + 1000);
    await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'expired');
    await pay(inv.pay_address, '2.00');
    await chain.mine(2);
    const failed = await eventually(async () => {
      const i = await getInvoice(t, m, inv.id);
      return i.status === 'failed' && i;
    });
    expect(failed).toMatchObject({ failure_reason: 'underpaid', amount_paid: '2.00' });
  });

  test('a payment more than 24 h after expiry is not taken', async () => {
    const inv = await newInvoice(t, m, '5.00');
    clock.advance(3_600_000 + 25 * 3_600_000);
    await eventually(async () => (await getInvoice(t, m, inv.id)).status === 'expired');
    await pay(inv.pay_address, '5.00');
    await chain.mine(3);
    await caughtUp(t, chain);
    expect(await getInvoice(t, m, inv.id)).toMatchObject({
      status: 'expired',
      amount_paid: '0.00',
      tx_hash: null,
    });
  });
});

describe('an invoice priced in EUR (contract §19)', () => {
  test('is paid on chain by its locked token amount, in either token, and late at the same rate', async () => {
    // Answers dated by the test's clock, which earlier tests moved a day ahead: a source's answer is as
    // old as its Date header says.
    const dated = { date: clock().toUTCString() };
    rates.answer(KRAKEN_USDTEUR, { body: krakenTicker('USDTEUR', '0.9338', '0.9342'), headers: dated });
    rates.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.9341'), headers: dated });
    const eur = await chainMerchant(t, { currency: 'EUR' });
    const inv = await newInvoice(t, eur, '20.00');
    expect(inv.rate).toMatchObject({ source: 'kraken', pair: 'USDT/EUR', value: '0.934' });
    // 20.00 / 0.934 = 21.41327623…, rounded up; both tokens take the same amount.
    expect((inv.payment_methods as Array<{ amount_due: string }>).map((m) => m.amount_due)).toEqual([
      '21.413277',
      '21.413277',
    ]);
    // The sources move, and the deadline passes: the lock holds through the late window.
    rates.answer(KRAKEN_USDTEUR, { body: krakenTicker('USDTEUR', '0.5000', '0.5002') });
    rates.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.5001') });
    clock.advance(3_600_000 + 1000);
    await eventually(async () => (await getInvoice(t, eur, inv.id)).status === 'expired');
    // Two methods on one network: the invoice has one address, named by each method.
    const [method] = inv.payment_methods as Array<{ pay_address: string }>;
    await pay(method?.pay_address as string, '21.413277', tokens.usdc);
    await chain.mine(2);
    const paid = await eventually(async () => {
      const i = await getInvoice(t, eur, inv.id);
      return i.status === 'paid' && i;
    });
    expect(paid).toMatchObject({ paid_late: true, amount: '20.00', amount_paid: '20.00', rate: inv.rate });
    expect(paid.payments).toMatchObject([{ currency: 'USDC', amount: '21.413277', status: 'confirmed' }]);
  });
});
