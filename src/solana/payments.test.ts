import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvoice, createMerchant, type Merchant, startTestApp, type TestApp } from '../../test/app.js';
import { closeAllSolana, type LocalSolana, startSolana } from '../../test/solana/cluster.js';
import { eventually } from '../../test/webhooks.js';

// Contract §24 end to end: the real app with its workers, a real Solana runtime (LiteSVM behind a
// local JSON-RPC server, test/solana/cluster.ts), payments built with @solana/kit as a wallet does.
const LOCAL = 'localsol';
let solana: LocalSolana;
let t: TestApp;
let merchant: { address: string };
let m: Merchant;

beforeAll(async () => {
  solana = await startSolana();
  t = await startTestApp({
    workers: true,
    env: {
      PAYDESK_NETWORKS: JSON.stringify([
        {
          name: LOCAL,
          family: 'solana',
          label: 'Local Solana',
          testnet: true,
          pollIntervalMs: 100,
          tokens: {
            USDC: { mint: solana.mints.USDC, decimals: 6 },
            USDT: { mint: solana.mints.USDT, decimals: 6 },
          },
        },
      ]),
      PAYDESK_RPC_LOCALSOL: solana.rpcUrl,
    },
  });
  merchant = await solana.newMerchant();
  m = await createMerchant(t.app, {
    currency: 'USD',
    payment_methods: [
      { network: LOCAL, currency: 'USDC' },
      { network: LOCAL, currency: 'USDT' },
    ],
    solana_address: merchant.address,
    underpayment_tolerance_percent: 1,
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await closeAllSolana();
});

async function newInvoice(amount: string) {
  const res = await createInvoice(t.app, m, { amount });
  expect(res.statusCode).toBe(201);
  const inv = res.json().data;
  const row = await t.database.db
    .selectFrom('invoices')
    .select('solana_reference')
    .where('id', '=', inv.id)
    .executeTakeFirstOrThrow();
  return { id: inv.id as string, reference: row.solana_reference as string, methods: inv.payment_methods };
}

const getInvoice = async (id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/merchant/invoices/${id}`, headers: m.auth })).json().data;

async function pay(reference: string | undefined, units: bigint, mint = solana.mints.USDC) {
  const payer = await solana.newPayer({ USDC: 100_000_000n, USDT: 100_000_000n });
  return solana.pay(payer, {
    recipient: merchant.address,
    mint,
    amount: units,
    references: reference ? [reference] : [],
  });
}

/** Slots until the watcher has read `confirmed`, then until the invoice shows `check`. */
async function until<T>(id: string, check: (inv: any) => T | undefined | false) {
  return eventually(async () => {
    solana.advance();
    return check(await getInvoice(id));
  }, 15_000);
}

describe('a Solana Pay payment', () => {
  test('the page offers a transfer request naming the wallet, mint, amount and the invoice reference', async () => {
    const inv = await newInvoice('12.50');
    expect(inv.methods[0]).toMatchObject({ network: LOCAL, currency: 'USDC', pay_address: merchant.address });
    const page = await t.app.inject({ method: 'GET', url: `/pay/${inv.id}` });
    expect(page.body).toContain(
      `solana:${merchant.address}?amount=12.5&amp;spl-token=${solana.mints.USDC}&amp;reference=${inv.reference}`,
    );
  });

  test('is detected at confirmed and paid at finalized', async () => {
    const inv = await newInvoice('10.00');
    const sig = await pay(inv.reference, 10_000_000n);
    const seen = await until(inv.id, (i) => i.payments.length === 1 && i);
    expect(seen.payments[0]).toMatchObject({
      tx_hash: sig,
      network: LOCAL,
      currency: 'USDC',
      status: 'detected',
    });
    expect(seen.status).toBe('pending');
    solana.finalize();
    const paid = await until(inv.id, (i) => i.status === 'paid' && i);
    expect(paid).toMatchObject({ amount_paid: '10.00', tx_hash: sig });
  });

  test('part in USDC and the rest in USDT, within the tolerance, pays the invoice', async () => {
    const inv = await newInvoice('20.00');
    await pay(inv.reference, 12_000_000n);
    await pay(inv.reference, 7_900_000n, solana.mints.USDT);
    solana.finalize();
    const paid = await until(inv.id, (i) => i.status === 'paid' && i);
    expect(paid.amount_paid).toBe('19.90');
    expect(paid.payments.map((p: any) => p.currency).sort()).toEqual(['USDC', 'USDT']);
  });

  test('a payment without the reference is recorded on nothing; one on a dropped fork is reversed', async () => {
    const inv = await newInvoice('5.00');
    await pay(undefined, 5_000_000n);
    const lost = await pay(inv.reference, 5_000_000n);
    await until(inv.id, (i) => i.payments.length === 1);
    solana.dropUnfinalized(lost);
    const reversed = await until(inv.id, (i) => {
      solana.finalize();
      return i.payments[0]?.status === 'reversed' && i;
    });
    expect(reversed.status).toBe('pending');
    expect(reversed.payments).toHaveLength(1);
  });

  test("the first payment may create the merchant's token account; another wallet's reference pays nothing", async () => {
    const fresh = await solana.newMerchant({ createAtas: false });
    const other = await createMerchant(t.app, {
      currency: 'USD',
      payment_methods: [{ network: LOCAL, currency: 'USDC' }],
      solana_address: fresh.address,
    });
    const res = await createInvoice(t.app, other, { amount: '2.00' });
    const id = res.json().data.id as string;
    const { solana_reference } = await t.database.db
      .selectFrom('invoices')
      .select('solana_reference')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const payer = await solana.newPayer({ USDC: 10_000_000n });
    // Into the first merchant's wallet, with this invoice's reference: not this invoice's money.
    await pay(solana_reference as string, 2_000_000n);
    const sig = await solana.pay(payer, {
      recipient: fresh.address,
      mint: solana.mints.USDC,
      amount: 2_000_000n,
      references: [solana_reference as string],
      createRecipientAta: true,
    });
    solana.finalize();
    const paid = await eventually(async () => {
      solana.advance();
      solana.finalize();
      const inv = (await t.app.inject({ url: `/v1/merchant/invoices/${id}`, headers: other.auth })).json()
        .data;
      return inv.status === 'paid' && inv;
    }, 15_000);
    expect(paid.payments).toEqual([expect.objectContaining({ tx_hash: sig })]);
  });

  test('rate limits, errors and a restart of the node mid-scan count a payment once', async () => {
    const inv = await newInvoice('3.00');
    solana.faults.rateLimit(6);
    solana.faults.error(2);
    const sig = await pay(inv.reference, 3_000_000n);
    await solana.restart({ downMs: 200 });
    solana.finalize();
    const paid = await until(inv.id, (i) => i.status === 'paid' && i);
    expect(paid.payments).toEqual([expect.objectContaining({ tx_hash: sig, status: 'confirmed' })]);
    expect(paid.amount_paid).toBe('3.00');
    expect(solana.calls()['(429)']).toBeGreaterThan(0);
  });
});

describe('a refund to a Solana address', () => {
  test('the claim page takes the payer’s wallet; a transfer into its token account sends it, finalized confirms it', async () => {
    const inv = await newInvoice('4.00');
    await pay(inv.reference, 4_000_000n);
    solana.finalize();
    await until(inv.id, (i) => i.status === 'paid');
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/merchant/invoices/${inv.id}/refunds`,
      headers: m.auth,
      payload: { amount: '1.50' },
    });
    const refund = created.json().data.refund;
    const claim = (address: string) =>
      t.app.inject({
        method: 'POST',
        url: new URL(refund.claim_url).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ method: `${LOCAL}:USDC`, address }).toString(),
      });
    const payer = await solana.newPayer({ USDC: 0n });
    // A token account (off the curve) is refused: the refund goes to a wallet's own token account.
    const ata = await solana.ata(payer.address, solana.mints.USDC);
    expect((await claim(ata)).body).toContain('it is off the curve');
    expect((await claim(payer.address)).statusCode).toBe(303);
    const refundOf = async () =>
      (await t.app.inject({ url: `/v1/merchant/invoices/${inv.id}/refunds`, headers: m.auth }))
        .json()
        .data.find((r: { id: string }) => r.id === refund.id);
    expect(await refundOf()).toMatchObject({ status: 'ready', address: payer.address });
    const sender = await solana.newPayer({ USDC: 10_000_000n });
    const sig = await solana.pay(sender, {
      recipient: payer.address,
      mint: solana.mints.USDC,
      amount: 1_500_000n,
      createRecipientAta: true,
    });
    const sent = await eventually(async () => {
      solana.advance();
      const r = await refundOf();
      return r.status === 'sent' && r;
    }, 15_000);
    expect(sent.tx_hash).toBe(sig);
    solana.finalize();
    await eventually(async () => {
      solana.advance();
      return (await refundOf()).status === 'confirmed';
    }, 15_000);
  });
});
