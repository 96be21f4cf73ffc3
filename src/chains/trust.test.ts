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
} from '../../test/chain-app.js';
import { installFactory } from '../../test/forwarders.js';
import { addEndpoint, eventually, type Receiver, startReceiver } from '../../test/webhooks.js';
import { money, toTokenUnits } from '../money/money.js';

/**
 * Contract §21, "Dust never decides" and "Money after close is never lost", on a real Hardhat node
 * through the real app and its workers (chain watcher, expiry, collector, webhook deliveries).
 * The project collects through forwarders, so money after close has a collection to join.
 * Confirmations: 3.
 */

let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
let hooks: Receiver;
const clock = manualClock();
const collectorKey: Hex = `0x${randomBytes(32).toString('hex')}`;
const payout = getAddress(`0x${randomBytes(20).toString('hex')}`);
const HOUR = 3_600_000;

beforeAll(async () => {
  chain = await startChain();
  tokens = await deployTokens(chain);
  await installFactory(chain);
  await chain.wallet.sendTransaction({ to: privateKeyToAccount(collectorKey).address, value: 10n ** 18n });
  t = await startTestApp({
    clock,
    workers: true,
    env: {
      ...localNetworkEnv(chain, tokens),
      PAYDESK_COLLECTOR_KEY: collectorKey,
      // Collections here start by "Collect now" only.
      PAYDESK_COLLECT_MIN_USD: '1000000',
      PAYDESK_WEBHOOK_ALLOW_PRIVATE: 'true',
    },
  });
  m = await chainMerchant(t, { payout_address: payout });
  hooks = await startReceiver();
  await addEndpoint(t.app, m.projectId, hooks.url);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await hooks?.close();
  await stopAllChains();
});

const pay = (to: string, amount: string) =>
  chain.transfer(tokens.usdt, to as Address, toTokenUnits(money(amount), 6));

async function newInvoice(amount: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/merchant/invoices',
    headers: m.auth,
    payload: { amount },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; pay_address: Address };
}

const until = (id: string, status: string) =>
  eventually(async () => {
    const i = await getInvoice(t, m, id);
    return i.status === status && i;
  });

/** The webhook deliveries the receiver got for one invoice, by event type. */
function delivered(invoiceId: string, type: string) {
  return hooks.received
    .map((r) => JSON.parse(r.body))
    .filter((e) => e.type === type && e.data.invoice?.id === invoiceId);
}

/** The types of the invoice's events in the outbox: what every webhook endpoint is sent. */
async function eventTypes(invoiceId: string): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('events')
    .select('type')
    .where('invoice_id', '=', invoiceId)
    .execute();
  return rows.map((r) => r.type);
}

async function balanceOf(owner: Address): Promise<bigint> {
  return (await chain.publicClient.readContract({
    address: tokens.usdt,
    abi: TOKEN_ABI,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

describe('dust never decides', () => {
  test('0.01 to a 10.00 invoice is dust: recorded, never credited, the page still asks for 10.00', async () => {
    const inv = await newInvoice('10.00');
    const dust = await pay(inv.pay_address, '0.01');
    await caughtUp(t, chain);
    // Unconfirmed: the page still shows what is due, the address, the QR code and the wallet link.
    const page = (await t.app.inject({ url: `/pay/${inv.id}` })).body;
    expect(page).toContain('data-state="waiting"');
    expect(page).toContain('id="pay-address"');
    expect(page).toContain('class="qr"');
    expect(page).toContain('Open in wallet');
    expect(page).toContain('<span class="amount-value" id="pay-amount">10.00</span>');
    await chain.mine(3);
    await caughtUp(t, chain);
    const seen = await getInvoice(t, m, inv.id);
    expect(seen).toMatchObject({
      status: 'pending',
      amount_paid: '0.00',
      tx_hash: null,
      payments: [{ tx_hash: dust, amount: '0.01', status: 'dust' }],
    });
    expect(seen.payment_methods[0].amount_due).toBe('10.000000');
    const status = (await t.app.inject({ url: `/pay/${inv.id}/status` })).json().data;
    expect(status).toMatchObject({ status: 'pending', amount_paid: '0.00' });
    expect(status.payment_methods[0].amount_due).toBe('10.000000');
    // Dust sends no "payment detected": nothing a merchant should act on.
    expect(await eventTypes(inv.id)).toEqual(['invoice.created']);

    // The payer pays what the page asks; the dust joins the payment that completes the invoice.
    const full = await pay(inv.pay_address, '10.00');
    await chain.mine(2);
    const paid = await until(inv.id, 'paid');
    expect(paid).toMatchObject({ amount_paid: '10.01', tx_hash: full });
    expect(paid.payments.map((p: { status: string }) => p.status)).toEqual(['confirmed', 'confirmed']);
  });

  test('dust alone at expiry leaves the invoice expired, and a full late payment still pays it', async () => {
    const inv = await newInvoice('10.00');
    await pay(inv.pay_address, '0.05');
    await chain.mine(3);
    await caughtUp(t, chain);
    clock.advance(HOUR + 1000); // past the default 1 h TTL
    const expired = await until(inv.id, 'expired');
    expect(expired).toMatchObject({ failure_reason: null, amount_paid: '0.00' });
    await pay(inv.pay_address, '10.00');
    await chain.mine(2);
    const paid = await until(inv.id, 'paid');
    expect(paid).toMatchObject({ paid_late: true, amount_paid: '10.05' });
  });
});

describe('money after close is never lost', () => {
  test('transfers to a paid, a failed and a long-expired invoice: after_close, announced once, collected, refundable', async () => {
    const expired = await newInvoice('7.00');
    const failed = await newInvoice('10.00');
    await pay(failed.pay_address, '4.00');
    await chain.mine(3);
    await caughtUp(t, chain);
    clock.advance(HOUR + 25 * HOUR); // past the deadline and the 24 h late window
    await until(failed.id, 'failed');
    await until(expired.id, 'expired');
    const paid = await newInvoice('10.00');
    await pay(paid.pay_address, '10.00');
    await chain.mine(3);
    await until(paid.id, 'paid');

    const before = await balanceOf(payout);
    const late = new Map<string, Hex>();
    for (const inv of [paid, failed, expired]) late.set(inv.id, await pay(inv.pay_address, '2.00'));
    await chain.mine(3);
    await caughtUp(t, chain);
    await chain.mine(3); // more blocks: nothing is announced twice
    await caughtUp(t, chain);
    const cases = [
      { inv: paid, status: 'paid', amountPaid: '10.00', refundable: '12.00' },
      { inv: failed, status: 'failed', amountPaid: '4.00', refundable: '6.00' },
      { inv: expired, status: 'expired', amountPaid: '0.00', refundable: '2.00' },
    ];
    for (const c of cases) {
      const now = await getInvoice(t, m, c.inv.id);
      expect(now.status).toBe(c.status);
      expect(now.amount_paid).toBe(c.amountPaid);
      const payment = now.payments.find((p: { tx_hash: string }) => p.tx_hash === late.get(c.inv.id));
      expect(payment).toMatchObject({ amount: '2.00', status: 'after_close' });
      const events = await eventTypes(c.inv.id);
      expect(events.filter((e) => e === 'invoice.payment_after_close')).toHaveLength(1);
      // Nothing else moved: the status event that closed the invoice is still its only one.
      expect(events.filter((e) => e === `invoice.${c.status}`)).toHaveLength(1);
      const [hook] = await eventually(async () => {
        const got = delivered(c.inv.id, 'invoice.payment_after_close');
        return got.length > 0 && got;
      });
      expect(hook.data.payment).toMatchObject({
        tx_hash: late.get(c.inv.id),
        amount: '2.00',
        confirmed: true,
      });
      expect(hook.data.invoice).toMatchObject({ status: c.status, amount_paid: c.amountPaid });
    }

    // Collected with the other deposits: the expired invoice's forwarder held nothing else. The day
    // the clock moved may have started a collection by age already, which takes them just the same.
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/projects/${m.projectId}/collections`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { network: LOCAL },
    });
    if (res.statusCode !== 202) {
      expect(res.json().error.details.errors[0].rule, res.body).toBe('nothing_to_collect');
    }
    await eventually(async () => {
      await chain.mine(1);
      return (await balanceOf(expired.pay_address)) === 0n && (await balanceOf(failed.pay_address)) === 0n;
    }, 15_000);
    expect(await balanceOf(paid.pay_address)).toBe(0n);
    expect((await balanceOf(payout)) - before).toBeGreaterThanOrEqual(toTokenUnits(money('6.00'), 6));

    // Refundable: what was paid plus the money after close, for an expired invoice too.
    for (const c of cases) {
      const refund = await t.app.inject({
        method: 'POST',
        url: `/v1/merchant/invoices/${c.inv.id}/refunds`,
        headers: m.auth,
        payload: {},
      });
      expect(refund.statusCode, refund.body).toBe(201);
      expect(refund.json().data.refund.amount).toBe(c.refundable);
    }
  });
});
