import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  ADMIN_TOKEN,
  createInvoice,
  createMerchant,
  type Merchant,
  manualClock,
  startTestApp,
  type TestApp,
} from '../../test/app.js';
import {
  COINBASE_USDTEUR,
  coinbaseSpot,
  ECB_DAILY,
  ECB_PATH,
  KRAKEN_USDTEUR,
  krakenTicker,
  type RateSourceServer,
  rateSourceServer,
} from '../../test/rate-sources.js';
import { invoiceCsv } from './csv.js';

/**
 * Invoices priced in other currencies (contract §19), end to end through the HTTP app and a real
 * database, with the three rate sources answering in their own formats from a local server.
 */

// The ECB sheet of the fixtures is of 28 June 2024 (14:15 in Frankfurt): the clock starts after it.
const clock = manualClock(new Date('2024-06-28T15:00:00Z'));
const CACHE_MS = 10_000;
const SANDBOX_BOTH = [
  { network: 'sandbox', currency: 'USDT' },
  { network: 'sandbox', currency: 'USDC' },
];
// Kraken's mid price 0.934 prices; Coinbase (0.9341) and the ECB (1 / 1.0705 = 0.93414…) agree.
const KRAKEN = krakenTicker('USDTEUR', '0.9338', '0.9342');
const COINBASE = coinbaseSpot('USDT', 'EUR', '0.9341');
// 20.00 EUR / 0.934 = 21.41327623… USDT, rounded up at the 6 decimals shown.
const TOKENS_FOR_20_EUR = '21.413277';

let server: RateSourceServer;
let t: TestApp;
let eur: Merchant;

function answerAll() {
  server.answer(KRAKEN_USDTEUR, { body: KRAKEN });
  server.answer(COINBASE_USDTEUR, { body: COINBASE });
  server.answer(ECB_PATH, { body: ECB_DAILY });
}

beforeAll(async () => {
  server = await rateSourceServer();
  t = await startTestApp({
    clock,
    env: {
      PAYDESK_RATE_KRAKEN_URL: server.url,
      PAYDESK_RATE_COINBASE_URL: server.url,
      PAYDESK_RATE_ECB_URL: server.url,
      // The default 2 s: the one test with a silent source waits it out once; shorter flaked on a busy
      // machine, where a local source's answer itself can take longer than 300 ms.
      PAYDESK_RATE_TIMEOUT_MS: '2000',
      PAYDESK_RATE_CACHE_SECONDS: String(CACHE_MS / 1000),
    },
  });
  eur = await createMerchant(t.app, { currency: 'EUR', payment_methods: SANDBOX_BOTH });
});
afterAll(async () => {
  await t.close();
  await server.close();
});
beforeEach(async () => {
  answerAll();
  // Past every cached answer: each test starts from the sources' current replies.
  clock.advance(CACHE_MS + 1);
  await t.app.rates.settled();
});

const simulate = (id: string, body: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/admin/invoices/${id}/simulate-payment`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: body,
  });

const invoiceCount = async (projectId: string) =>
  Number(
    (
      await t.database.db
        .selectFrom('invoices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('an invoice in EUR', () => {
  test('locks the first fresh rate and prices every method from it, rounded up', async () => {
    const res = await createInvoice(t.app, eur, { amount: '20.00' });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json().data;
    expect(inv).toMatchObject({
      amount: '20.00',
      currency: 'EUR',
      amount_paid: '0.00',
      rate: { source: 'kraken', pair: 'USDT/EUR', value: '0.934', fetched_at: clock().toISOString() },
    });
    expect(inv.payment_methods.map((m: { amount_due: string }) => m.amount_due)).toEqual([
      TOKENS_FOR_20_EUR,
      TOKENS_FOR_20_EUR,
    ]);
    // The lock is the invoice's: a later quote changes nothing it shows.
    server.answer(KRAKEN_USDTEUR, { body: krakenTicker('USDTEUR', '0.9000', '0.9002') });
    clock.advance(CACHE_MS + 1);
    const again = await t.app.inject({ url: `/v1/merchant/invoices/${inv.id}`, headers: eur.auth });
    expect(again.json().data.rate).toEqual(inv.rate);
    expect(again.json().data.payment_methods[0].amount_due).toBe(TOKENS_FOR_20_EUR);
  });

  test('is paid by its token amount, in either token, and shows what arrived in euros', async () => {
    const inv = (await createInvoice(t.app, eur, { amount: '20.00' })).json().data;
    const part = await simulate(inv.id, { amount: '10', currency: 'USDC' });
    expect(part.json().data).toMatchObject({ status: 'pending', amount_paid: '9.34' });
    clock.advance(1_000); // payments are listed in the order seen
    const rest = (await simulate(inv.id, { currency: 'USDT' })).json().data;
    expect(rest).toMatchObject({ status: 'paid', amount_paid: '20.00', rate: inv.rate });
    expect(rest.payments.map((p: { amount: string }) => p.amount)).toEqual(['10.00', '11.413277']);
    // The webhook bodies carry the rate.
    const events = await t.database.db
      .selectFrom('events')
      .select(['type', 'body'])
      .where('invoice_id', '=', inv.id)
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.type)).toContain('invoice.paid');
    for (const e of events) expect(JSON.parse(e.body).data.invoice.rate).toEqual(inv.rate);
  });

  test('short of the token amount it stays open; within the tolerance it is paid', async () => {
    const strict = (await createInvoice(t.app, eur, { amount: '20.00' })).json().data;
    const short = (await simulate(strict.id, { amount: '21.40' })).json().data;
    // 21.40 USDT is 19.9876 EUR at the rate: shown rounded down, and 0.013277 USDT is still due.
    expect(short).toMatchObject({ status: 'pending', amount_paid: '19.98' });
    expect(short.payment_methods[0].amount_due).toBe('0.013277');
    const tolerant = await createMerchant(t.app, {
      currency: 'EUR',
      payment_methods: SANDBOX_BOTH,
      underpayment_tolerance_percent: 1,
    });
    const inv = (await createInvoice(t.app, tolerant, { amount: '20.00' })).json().data;
    // 1 % of 21.413277 USDT may be missing: 21.20 USDT (19.80 EUR at the rate) pays.
    const paid = (await simulate(inv.id, { amount: '21.20' })).json().data;
    expect(paid).toMatchObject({ status: 'paid', amount_paid: '19.80' });
  });

  test('the payment page shows the price and its token amount; /status keeps its fields', async () => {
    const inv = (await createInvoice(t.app, eur, { amount: '20.00' })).json().data;
    const page = await t.app.inject({ url: `/pay/${inv.id}` });
    expect(page.body).toContain(`€20.00 = ${TOKENS_FOR_20_EUR} USDT`);
    // In the payer's language: Spanish writes the euro after the amount, with a no-break space.
    const spanish = await t.app.inject({ url: `/pay/${inv.id}?lang=es` });
    expect(spanish.body).toContain(`20,00\u00a0€ = ${TOKENS_FOR_20_EUR.replace('.', ',')} USDT`);
    const status = (await t.app.inject({ url: `/pay/${inv.id}/status` })).json().data;
    expect(status).toMatchObject({ amount: '20.00', currency: 'EUR', amount_paid: '0.00' });
    expect(Object.keys(status)).not.toContain('rate');
  });

  test('the CSV export names the rate of each priced invoice', async () => {
    const inv = (await createInvoice(t.app, eur, { amount: '20.00', order_id: 'csv-1' })).json().data;
    let csv = '';
    for await (const chunk of invoiceCsv(t.database.db, eur.projectId, { q: 'csv-1' })) csv += chunk;
    const [header, row] = csv
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    const cell = (name: string) => row?.[header?.indexOf(name) ?? -1];
    expect(cell('id')).toBe(inv.id);
    expect([cell('amount'), cell('currency')]).toEqual(['20.00', 'EUR']);
    expect([cell('rate_pair'), cell('rate_value'), cell('rate_source')]).toEqual([
      'USDT/EUR',
      '0.934',
      'kraken',
    ]);
    expect(cell('rate_fetched_at')).toBe(inv.rate.fetched_at);
  });
});

describe('without a fresh, agreeing rate', () => {
  test('a create answers 503 with Retry-After and stores nothing', async () => {
    server.answer(KRAKEN_USDTEUR, { status: 500, body: { error: ['EService:Unavailable'] } });
    server.answer(COINBASE_USDTEUR, 'reset');
    server.answer(ECB_PATH, 'hang');
    const before = await invoiceCount(eur.projectId);
    const res = await createInvoice(t.app, eur, { amount: '20.00' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await invoiceCount(eur.projectId)).toBe(before);
    server.dropHanging();
  });

  test('two sources apart by more than the spread price nothing', async () => {
    server.answer(COINBASE_USDTEUR, { body: coinbaseSpot('USDT', 'EUR', '0.9500') });
    const res = await createInvoice(t.app, eur, { amount: '20.00' });
    expect(res.statusCode).toBe(503);
  });

  test('a retry of a create made while a rate was at hand is its replay', async () => {
    const headers = { 'idempotency-key': `priced-${Date.now()}` };
    const first = await createInvoice(t.app, eur, { amount: '20.00' }, headers);
    expect(first.statusCode).toBe(201);
    server.answer(KRAKEN_USDTEUR, 'reset');
    server.answer(COINBASE_USDTEUR, 'reset');
    server.answer(ECB_PATH, 'reset');
    clock.advance(CACHE_MS + 1);
    const retry = await createInvoice(t.app, eur, { amount: '20.00' }, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data).toEqual(first.json().data);
    // A new request under another key finds no rate.
    const other = await createInvoice(
      t.app,
      eur,
      { amount: '20.00' },
      { 'idempotency-key': `${headers['idempotency-key']}-2` },
    );
    expect(other.statusCode).toBe(503);
  });
});

test('a burst of creates asks each source once', async () => {
  const before = t.app.rates.calls();
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => createInvoice(t.app, eur, { amount: '5.00' })),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 201));
  await t.app.rates.settled();
  const after = t.app.rates.calls();
  expect(after.kraken - before.kraken).toBe(1);
  expect(after.coinbase - before.coinbase).toBe(1);
  expect(after.ecb - before.ecb).toBeLessThanOrEqual(1);
});

describe('currencies without a minor unit', () => {
  let jpy: Merchant;
  beforeAll(async () => {
    jpy = await createMerchant(t.app, { currency: 'JPY', payment_methods: SANDBOX_BOTH });
  });

  test('take whole amounts, and say so when sent decimals', async () => {
    server.answer('/0/public/Ticker?pair=USDTJPY', { body: krakenTicker('USDTJPY', '160.60', '160.62') });
    server.answer('/v2/prices/USDT-JPY/spot', { body: coinbaseSpot('USDT', 'JPY', '160.65') });
    const res = await createInvoice(t.app, jpy, { amount: '1500' });
    expect(res.statusCode, res.body).toBe(201);
    // 1500 / 160.61 = 9.33939…, rounded up.
    expect(res.json().data).toMatchObject({ amount: '1500', currency: 'JPY', amount_paid: '0' });
    expect(res.json().data.payment_methods[0].amount_due).toBe('9.339394');
    for (const amount of ['1500.50', '1500.00']) {
      const refused = await createInvoice(t.app, jpy, { amount });
      expect(refused.statusCode).toBe(422);
      const [error] = refused.json().error.details.errors;
      expect(error).toMatchObject({ field: 'amount', rule: 'decimal_places' });
      expect(error.message).toContain('JPY');
    }
  });
});

describe('a project currency', () => {
  const project = async (currency: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/admin/projects',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { account_id: (await createMerchant(t.app)).accountId, name: 'Shop', currency },
    });

  test('may be any ISO 4217 code a source quotes, and not a token invoice currency in lower case', async () => {
    expect((await project('BRL')).statusCode).toBe(201);
    const unknown = await project('XYZ');
    expect(unknown.json().error.details.errors[0]).toMatchObject({ field: 'currency', rule: 'enum' });
  });

  test('an ISO code no enabled source quotes is refused with what to do', async () => {
    const onlyKraken = await startTestApp({ env: { PAYDESK_RATE_SOURCES: 'kraken,ecb' } });
    try {
      const account = await onlyKraken.app.inject({
        method: 'POST',
        url: '/v1/admin/accounts',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { name: 'A' },
      });
      const res = await onlyKraken.app.inject({
        method: 'POST',
        url: '/v1/admin/projects',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { account_id: account.json().data.id, name: 'Shop', currency: 'ARS' },
      });
      expect(res.statusCode).toBe(422);
      const [error] = res.json().error.details.errors;
      expect(error).toMatchObject({ field: 'currency', rule: 'unsupported' });
      expect(error.message).toContain('PAYDESK_RATE_SOURCES');
    } finally {
      await onlyKraken.close();
    }
  });
});
